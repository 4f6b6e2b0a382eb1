// The live socket: /ws?lang=, {"subscribe": [id]} -> {"type": "ranking", scenario, ranking} at
// once and on every change, {"type": "error", scenario, error} otherwise (DashboardSockets).
// Reconnects with exponential backoff and jitter (1, 2, 4, 8, 15, 15 ... s) and resubscribes.
const BACKOFF_MAX_MS = 15000;

export class LiveSocket {
  /**
   * @param handlers {onRanking(id, ranking), onError(id, message), onState(key, args)}
   */
  constructor(handlers) {
    this.h = handlers;
    this.ws = null;
    this.lang = 'en';
    this.ids = new Set();
    this.attempt = 0;
    this.timer = 0;
    this.countdown = 0;
    this.reconnectAt = 0;
  }

  /** Follows one scenario (the page follows one at a time). */
  follow(id) {
    const old = [...this.ids].filter(x => x !== id);
    if (old.length) this.send({ unsubscribe: old });
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
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?lang=' + this.lang);
    this.ws = ws;
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
      if (m.type === 'ranking' && this.ids.has(m.scenario)) this.h.onRanking(m.scenario, m.ranking);
      else if (m.type === 'error' && (!m.scenario || this.ids.has(m.scenario))) this.h.onError(m.scenario, m);
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
