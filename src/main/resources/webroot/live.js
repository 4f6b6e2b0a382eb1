// The live socket: /ws?lang=&deltas=true, {"subscribe": [id]} -> {"type": "ranking", scenario,
// ranking} at once, then {"type": "ranking-delta", ...} on every change (the plans kept from the
// last message named by vendor, an unchanged mixed plan or reference as "same"; LiveRankingJson), and
// {"type": "error", scenario, error} otherwise (DashboardSockets). Reconnects with exponential
// backoff and jitter (1, 2, 4, 8, 15, 15 ... s) and resubscribes.
const BACKOFF_MAX_MS = 15000;

/**
 * The ranking a delta describes, from the last ranking of its scenario; null when it names a plan
 * that ranking does not have (the socket is then out of step and is opened again).
 */
export function applyDelta(last, delta) {
  const byVendor = new Map(last.plans.map(p => [p.vendor, p]));
  const plans = delta.plans.map(p => (typeof p === 'string' ? byVendor.get(p) : p));
  if (plans.some(p => p === undefined)) return null;
  const kept = (now, was) => (now === 'same' ? was : now);
  return Object.assign({}, delta, { plans, mixed: kept(delta.mixed, last.mixed), reference: kept(delta.reference, last.reference) });
}

export class LiveSocket {
  /**
   * @param handlers {onRanking(id, ranking), onError(id, message), onState(key, args)}
   */
  constructor(handlers) {
    this.h = handlers;
    this.ws = null;
    this.lang = 'en';
    this.ids = new Set();
    /** The last ranking received per scenario on the current connection: what the next delta builds on. */
    this.last = new Map();
    this.attempt = 0;
    this.timer = 0;
    this.countdown = 0;
    this.reconnectAt = 0;
  }

  /** Follows one scenario (the page follows one at a time). */
  follow(id) {
    const old = [...this.ids].filter(x => x !== id);
    if (old.length) this.send({ unsubscribe: old });
    old.forEach(x => this.last.delete(x));
    this.ids = new Set([id]);
    if (this.open()) this.send({ subscribe: [id] });
    else this.connect();
  }

  /** A new language: a new connection, whose subscription answers in it at once. */
  setLang(lang) {
    if (lang === this.lang) return;
    this.lang = lang;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
      if (this.ids.size) this.connect();
    }
  }

  resubscribe() {
    if (this.open() && this.ids.size) this.send({ subscribe: [...this.ids] });
  }

  open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(msg) {
    if (this.open()) this.ws.send(JSON.stringify(msg));
  }

  connect() {
    if (this.ws && (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    clearInterval(this.countdown);
    this.h.onState('connecting');
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?deltas=true&lang=' + this.lang);
    this.ws = ws;
    this.last = new Map();
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.h.onState('subscribing');
      this.resubscribe();
    };
    ws.onmessage = ev => {
      if (this.ws !== ws) return;
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === 'ranking-delta' && this.ids.has(m.scenario)) {
        const last = this.last.get(m.scenario);
        const ranking = last && applyDelta(last, m.ranking);
        if (!ranking) {
          ws.close();  // out of step: a new connection starts from whole rankings
          return;
        }
        m.ranking = ranking;
        m.type = 'ranking';
      }
      if (m.type === 'ranking' && this.ids.has(m.scenario)) {
        this.last.set(m.scenario, m.ranking);
        this.h.onRanking(m.scenario, m.ranking);
      } else if (m.type === 'error' && (!m.scenario || this.ids.has(m.scenario))) this.h.onError(m.scenario, m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.ids.size) this.later();
    };
  }

  later() {
    const base = Math.min(BACKOFF_MAX_MS, 1000 * 2 ** this.attempt);
    this.attempt++;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.reconnectAt = Date.now() + delay;
    const tick = () => this.h.onState('reconnecting', { s: Math.max(1, Math.ceil((this.reconnectAt - Date.now()) / 1000)) });
    tick();
    clearInterval(this.countdown);
    this.countdown = setInterval(tick, 1000);
    this.timer = setTimeout(() => {
      clearInterval(this.countdown);
      this.connect();
    }, delay);
  }
}
