// gpurent dashboard: plain JS, no build step. Talks to the service's own API only:
// GET /api/presets, GET /api/vendors, POST /api/scenarios, DELETE /api/scenarios/{id},
// POST /api/rank (CSV), the /ws WebSocket ({"subscribe": [id]} -> {"type": "ranking", ...}) and,
// for the price history panel, GET /api/gpus, /api/history, /api/quotes, /api/snapshots and
// /api/snapshots/{id}/diff.
(() => {
  'use strict';

  const VENDORS_EVERY_MS = 30000;
  const BACKOFF_MAX_MS = 15000;
  const PRESET_NAMES_ZH = {
    'guide-template': '指南模板（5.1）：固定 GPU',
    'guide-template-open': '指南模板（5.1）：不指定 GPU',
    'team-small': '3 人以内团队，仅推理（5.2）',
    'team-medium': '5–10 人团队，推理加微调（5.2）',
    'team-large': '10–20 人团队，训练加推理（5.2）',
  };
  const FRESHNESS_ICON = { fresh: '●', stale: '◐', expired: '○', unavailable: '✕' };

  const $ = (sel, root = document) => root.querySelector(sel);
  const ui = {
    preset: $('#preset'),
    json: $('#scenario-json'),
    excludeRegions: $('#exclude-regions'),
    excludeVendors: $('#exclude-vendors'),
    cudaOnly: $('#cuda-only'),
    completeOnly: $('#complete-only'),
    errors: $('#field-errors'),
    errorList: $('#field-error-list'),
    rank: $('#rank-live'),
    csv: $('#download-csv'),
    format: $('#format-json'),
    status: $('#status'),
    summary: $('#scenario-summary'),
    table: $('#ranking'),
    tbody: $('#ranking tbody'),
    mixed: $('#mixed'),
    unavailable: $('#unavailable'),
    chart: $('#chart'),
    chartTitle: $('#chart-title'),
    vendorsBody: $('#vendors tbody'),
    vendorsUpdated: $('#vendors-updated'),
  };

  const state = {
    lang: 'en',
    presets: [],
    errors: [],            // [{field, reason}] shown beside the editor
    scenarioId: null,      // the live scenario's id on the server
    scenario: null,        // the scenario object registered under that id
    ranking: null,
    updatedAt: null,
    prevRanks: new Map(),  // vendor -> rank before the last update, to show moves
    changed: new Set(),
    expanded: new Set(),   // vendors whose bill is open; kept across live updates
    ws: null,
    attempt: 0,
    reconnectAt: 0,
    timers: {},
    status: { key: 'idle', args: {} },
    vendors: null,
    vendorsAt: null,
    vendorsError: null,
    chart: null,
    chartWidth: 0,
  };

  // --- i18n

  function t(key, args) {
    const dict = window.I18N[state.lang] || window.I18N.en;
    let s = dict[key] != null ? dict[key] : (window.I18N.en[key] != null ? window.I18N.en[key] : key);
    if (args) s = s.replace(/\{(\w+)\}/g, (m, k) => (args[k] != null ? args[k] : m));
    return s;
  }

  function locale() {
    return state.lang === 'zh' ? 'zh-CN' : 'en-US';
  }

  function initialLang() {
    try {
      const saved = localStorage.getItem('gpurent.lang');
      if (saved && window.I18N[saved]) return saved;
    } catch (e) { /* storage disabled */ }
    const nav = (navigator.languages && navigator.languages[0]) || navigator.language || 'en';
    return nav.toLowerCase().startsWith('zh') ? 'zh' : 'en';
  }

  function setLang(lang) {
    state.lang = window.I18N[lang] ? lang : 'en';
    try { localStorage.setItem('gpurent.lang', state.lang); } catch (e) { /* storage disabled */ }
    document.documentElement.lang = state.lang === 'zh' ? 'zh-CN' : 'en';
    document.title = 'gpurent · ' + t('title');
    document.querySelectorAll('[data-i18n]').forEach(n => { n.textContent = t(n.dataset.i18n); });
    document.querySelectorAll('.lang button').forEach(b => b.setAttribute('aria-pressed', String(b.dataset.lang === state.lang)));
    fillPresets();
    renderErrors();
    renderStatus();
    renderAll();
    renderVendors();
    relabelHistory();
    document.getElementById('qs-template').href = '/api/quote-sheets/template?lang=' + state.lang;
  }

  // --- quote sheet upload (admin): POST /api/admin/quote-sheets

  async function uploadQuoteSheet(e) {
    e.preventDefault();
    const status = document.getElementById('qs-status');
    const list = document.getElementById('qs-errors');
    const file = document.getElementById('qs-file').files[0];
    const form = new FormData();
    form.append('vendor', document.getElementById('qs-vendor').value.trim());
    if (file) form.append('sheet', file, file.name);
    status.textContent = t('qsUploading');
    list.replaceChildren();
    try {
      const r = await fetch('/api/admin/quote-sheets', {
        method: 'POST', body: form,
        headers: { Authorization: 'Bearer ' + document.getElementById('qs-token').value, Accept: 'application/json' },
      });
      const body = await r.json().catch(() => ({}));
      if (r.ok) {
        status.textContent = t('qsDone', { offers: body.offers, vendor: body.vendor });
        setTimeout(loadVendors, 1000);
      } else if (r.status === 400 && body.fields) {
        status.textContent = t('qsBad');
        list.replaceChildren(...body.fields.map(f => {
          const li = document.createElement('li');
          li.textContent = f.message || (f.field + ': ' + f.reason);
          return li;
        }));
      } else {
        status.textContent = t('qsFailed', { msg: body.error || r.status });
      }
    } catch (err) {
      status.textContent = t('qsFailed', { msg: err.message });
    }
  }

  // --- formatting

  function num(s) {
    return s == null || s === '' ? NaN : Number(s);
  }

  function money(s) {
    const n = num(s);
    if (!Number.isFinite(n)) return '—';
    return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
  }

  /** A unit price: at least 2 decimals, at most 4 (the server may send many). */
  function unitPrice(s) {
    const n = num(s);
    if (!Number.isFinite(n)) return '—';
    return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(n);
  }

  function compact(n) {
    return new Intl.NumberFormat(locale(), { notation: 'compact', maximumFractionDigits: 1 }).format(n);
  }

  function unitText(u) {
    const key = 'unit_' + u;
    const s = t(key);
    return s === key ? u : s;
  }

  function billingText(b) {
    const key = 'billing_' + b;
    const s = t(key);
    return s === key ? b : s;
  }

  function age(seconds) {
    if (seconds == null) return t('never');
    const s = Math.max(0, Math.round(seconds));
    if (s < 90) return t('ageS', { n: s });
    if (s < 90 * 60) return t('ageM', { n: Math.round(s / 60) });
    if (s < 36 * 3600) return t('ageH', { n: Math.round(s / 3600) });
    return t('ageD', { n: Math.round(s / 86400) });
  }

  function time(d) {
    return d ? d.toLocaleTimeString(locale(), { hour12: false }) : '';
  }

  function dateTime(iso) {
    if (!iso) return '—';
    const d = new Date(iso);
    return isNaN(d) ? iso : d.toLocaleString(locale(), { hour12: false, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  }

  /** Builds an element: el('td', {class: 'num', 'data-x': 1}, 'text', child, ...). */
  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v == null || v === false) continue;
        if (k === 'class') n.className = v;
        else if (k === 'text') n.textContent = v;
        else n.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (const c of children.flat()) {
      if (c == null || c === false) continue;
      n.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return n;
  }

  function badge(freshness) {
    const f = freshness || 'unavailable';
    return el('span', { class: 'badge ' + f, 'data-freshness': f },
      el('span', { 'aria-hidden': 'true' }, FRESHNESS_ICON[f] || '•'), ' ', t(f));
  }

  // --- status line

  function setStatus(key, args) {
    state.status = { key, args: args || {} };
    renderStatus();
  }

  function renderStatus() {
    const { key, args } = state.status;
    let text;
    switch (key) {
      case 'live':
        text = t('statusLive', { time: time(state.updatedAt), quotes: dateTime(state.ranking && state.ranking.quotesAt) });
        break;
      case 'reconnecting':
        text = t('statusReconnecting', { s: Math.max(1, Math.ceil((state.reconnectAt - Date.now()) / 1000)) });
        break;
      case 'error':
        text = t('statusError', args);
        break;
      default:
        text = t('status' + key.charAt(0).toUpperCase() + key.slice(1), args);
    }
    ui.status.textContent = text;
    ui.status.dataset.state = key;
  }

  // --- presets and the editor

  async function loadPresets() {
    try {
      const r = await fetch('/api/presets', { headers: { Accept: 'application/json' } });
      if (!r.ok) throw new Error((await problem(r)).error);
      state.presets = await r.json();
    } catch (e) {
      setStatus('error', { msg: e.message });
      return;
    }
    fillPresets();
    const first = state.presets.find(p => p.id === 'guide-template') || state.presets[0];
    if (first && !ui.json.value.trim()) {
      ui.preset.value = first.id;
      loadPreset(first.id);
    }
  }

  function fillPresets() {
    const current = ui.preset.value;
    ui.preset.replaceChildren(el('option', { value: '' }, t('presetCustom')));
    for (const p of state.presets) {
      const name = state.lang === 'zh' && PRESET_NAMES_ZH[p.id] ? PRESET_NAMES_ZH[p.id] : p.name;
      ui.preset.append(el('option', { value: p.id }, name));
    }
    ui.preset.value = current;
  }

  function loadPreset(id) {
    const p = state.presets.find(x => x.id === id);
    if (!p) return;
    ui.json.value = JSON.stringify(p.scenario, null, 2);
    state.errors = [];
    renderErrors();
  }

  /** The editor's scenario, or null after listing what is wrong with it. */
  function readScenario() {
    let v;
    try {
      v = JSON.parse(ui.json.value);
    } catch (e) {
      showErrors([{ field: '(JSON)', reason: t('jsonError', { msg: e.message }) }]);
      return null;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      showErrors([{ field: '(JSON)', reason: t('jsonNotObject') }]);
      return null;
    }
    return withFilters(v);
  }

  /** The "rule out" fields on top of the scenario's own filters: what a buyer says no to. */
  function withFilters(v) {
    const list = input => input.value.split(',').map(x => x.trim()).filter(Boolean);
    const regions = list(ui.excludeRegions), vendors = list(ui.excludeVendors);
    if (regions.length) v.regions = { ...(v.regions || {}), exclude: [...new Set([...((v.regions || {}).exclude || []), ...regions])] };
    if (vendors.length) v.vendors = { ...(v.vendors || {}), exclude: [...new Set([...((v.vendors || {}).exclude || []), ...vendors])] };
    if (ui.cudaOnly.checked) v.gpuMakers = ['nvidia'];
    if (ui.completeOnly.checked) v.requireComplete = true;
    return v;
  }

  function showErrors(fields) {
    state.errors = fields || [];
    renderErrors();
  }

  function renderErrors() {
    const list = state.errors;
    ui.errorList.replaceChildren(...list.map(f => el('li', { 'data-field': f.field },
      el('button', { type: 'button', class: 'field-link', 'data-field': f.field }, f.field), ' ', el('span', null, f.reason))));
    ui.errors.hidden = list.length === 0;
    if (list.length) ui.json.setAttribute('aria-invalid', 'true');
    else ui.json.removeAttribute('aria-invalid');
  }

  /** Selects the key a field error names (e.g. workloads[1].peakQps) in the editor. */
  function locateField(field) {
    const text = ui.json.value;
    const parts = field.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
    let from = 0;
    let found = -1;
    let key = null;
    for (const part of parts) {
      if (/^\d+$/.test(part)) {
        // skip to the n-th object of the array just found
        let n = Number(part);
        let i = text.indexOf('{', from);
        while (n-- > 0 && i >= 0) i = skipObject(text, i);
        if (i >= 0) from = i;
      } else {
        key = '"' + part + '"';
        const i = text.indexOf(key, from);
        if (i < 0) break;
        found = i;
        from = i + key.length;
      }
    }
    ui.json.focus();
    if (found >= 0 && key) ui.json.setSelectionRange(found, found + key.length);
  }

  function skipObject(text, start) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return text.indexOf('{', i + 1);
    }
    return -1;
  }

  async function problem(r) {
    try {
      const j = await r.json();
      return j && typeof j === 'object' ? j : { error: String(j) };
    } catch (e) {
      return { error: r.status + ' ' + r.statusText };
    }
  }

  // --- live ranking

  async function rankLive() {
    const s = readScenario();
    if (!s) {
      setStatus('invalid');
      return;
    }
    ui.rank.disabled = true;
    try {
      await register(s);
    } finally {
      ui.rank.disabled = false;
    }
  }

  async function register(s) {
    setStatus('registering');
    let r;
    try {
      r = await fetch('/api/scenarios', {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(s),
      });
    } catch (e) {
      setStatus('error', { msg: e.message });
      return false;
    }
    if (r.status === 400) {
      showErrors((await problem(r)).fields || []);
      setStatus('invalid');
      return false;
    }
    if (r.status !== 201) {
      setStatus('error', { msg: (await problem(r)).error || r.status });
      return false;
    }
    showErrors([]);
    const { id } = await r.json();
    const old = state.scenarioId;
    state.scenarioId = id;
    state.scenario = s;
    scenarioChanged(s);
    if (old && old !== id) {
      send({ unsubscribe: [old] });
      forget(old);
      state.ranking = null;
      state.prevRanks = new Map();
      state.changed = new Set();
      renderAll();
    }
    subscribe();
    return true;
  }

  function forget(id) {
    fetch('/api/scenarios/' + encodeURIComponent(id), { method: 'DELETE', keepalive: true }).catch(() => {});
  }

  function wsOpen() {
    return state.ws && state.ws.readyState === WebSocket.OPEN;
  }

  function send(msg) {
    if (wsOpen()) state.ws.send(JSON.stringify(msg));
  }

  function subscribe() {
    clearTimeout(state.timers.retry);
    if (!state.scenarioId) return;
    if (!wsOpen()) {
      connect();
      return;
    }
    if (!state.ranking) setStatus('subscribing');
    send({ subscribe: [state.scenarioId] });
  }

  function connect() {
    if (state.ws && (state.ws.readyState === WebSocket.CONNECTING || state.ws.readyState === WebSocket.OPEN)) return;
    clearTimeout(state.timers.reconnect);
    clearInterval(state.timers.countdown);
    setStatus('connecting');
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    state.ws = ws;
    ws.onopen = () => {
      if (state.ws !== ws) return;
      state.attempt = 0;
      // a resubscription answers with the current ranking at once
      subscribe();
    };
    ws.onmessage = ev => { if (state.ws === ws) onMessage(ev.data); };
    ws.onclose = () => {
      if (state.ws !== ws) return;
      state.ws = null;
      if (state.scenarioId) reconnectLater();
    };
  }

  /** Exponential backoff with jitter: 1, 2, 4, 8, 15, 15 ... seconds. */
  function reconnectLater() {
    const base = Math.min(BACKOFF_MAX_MS, 1000 * 2 ** state.attempt);
    state.attempt++;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    state.reconnectAt = Date.now() + delay;
    setStatus('reconnecting');
    clearInterval(state.timers.countdown);
    state.timers.countdown = setInterval(renderStatus, 1000);
    state.timers.reconnect = setTimeout(() => {
      clearInterval(state.timers.countdown);
      connect();
    }, delay);
  }

  function onMessage(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return;
    }
    if (m.type === 'ranking') {
      if (m.scenario !== state.scenarioId) return;
      update(m.ranking);
    } else if (m.type === 'error') {
      if (m.scenario && m.scenario !== state.scenarioId) return;
      const msg = String(m.error || '');
      if (/no quotes yet/i.test(msg)) {
        setStatus('waiting');
        state.timers.retry = setTimeout(subscribe, 2000);
      } else if (/no live scenario/i.test(msg) && state.scenario && !state.reregistering) {
        // the service restarted and forgot the scenario: register it again
        state.reregistering = true;
        state.scenarioId = null;
        register(state.scenario).finally(() => { state.reregistering = false; });
      } else {
        setStatus('error', { msg });
      }
    }
  }

  function update(ranking) {
    const before = new Map();
    if (state.ranking) state.ranking.plans.forEach((p, i) => before.set(p.vendor, { rank: i + 1, monthly: p.monthlyTotal }));
    state.prevRanks = before;
    state.changed = new Set();
    if (before.size) {
      ranking.plans.forEach((p, i) => {
        const b = before.get(p.vendor);
        if (!b || b.rank !== i + 1 || b.monthly !== p.monthlyTotal) state.changed.add(p.vendor);
      });
    }
    state.ranking = ranking;
    state.updatedAt = new Date();
    setStatus('live');
    renderAll();
  }

  // --- rendering the ranking

  function renderAll() {
    renderRanking();
    renderMixed();
    renderUnavailable();
    renderChart();
  }

  function renderRanking() {
    const r = state.ranking;
    $('#th-monthly').textContent = r ? t('thMonthlyCur', { cur: r.currency }) : t('thMonthly');
    $('#th-horizon').textContent = r ? t('thHorizonN', { n: r.horizonMonths }) : t('thHorizon');
    ui.table.dataset.scenario = state.scenarioId || '';
    if (!r) {
      ui.summary.hidden = true;
      ui.tbody.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: 7 }, t('noRanking'))));
      return;
    }
    ui.summary.hidden = false;
    ui.summary.textContent = t('summary', { name: r.scenario || '—', cur: r.currency, n: r.horizonMonths, count: r.plans.length });
    if (!r.plans.length) {
      ui.tbody.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: 7 }, t('noPlans'))));
      return;
    }
    const rows = [];
    r.plans.forEach((p, i) => {
      const rank = i + 1;
      const open = state.expanded.has(p.vendor);
      const detailId = 'bill-' + p.vendor.replace(/[^a-zA-Z0-9_-]/g, '_');
      const before = state.prevRanks.get(p.vendor);
      let move = null;
      if (before && before.rank !== rank) {
        const up = before.rank > rank;
        move = el('span', { class: 'move ' + (up ? 'up' : 'down'), title: (up ? '▲' : '▼') + Math.abs(before.rank - rank) },
          (up ? '▲' : '▼') + Math.abs(before.rank - rank));
      }
      const toggle = el('button', {
        type: 'button', class: 'toggle', 'aria-expanded': String(open), 'aria-controls': detailId,
        'aria-label': t('billOf', { vendor: p.displayName || p.vendor }), 'data-vendor': p.vendor,
      }, el('span', { class: 'chev', 'aria-hidden': 'true' }, '▸'), ' ', t('showBill'));
      const savings = [];
      if (num(p.savingsVsOnDemand) > 0) savings.push(el('div', null, t('savedVsOnDemand', { x: money(p.savingsVsOnDemand) })));
      if (num(p.savingsVsMonthly) > 0) savings.push(el('div', null, t('savedVsMonthly', { x: money(p.savingsVsMonthly) })));
      const tr = el('tr', {
        'data-vendor': p.vendor, 'data-rank': rank, class: [rank === 1 ? 'best' : '', state.changed.has(p.vendor) ? 'changed' : ''].join(' ').trim() || null,
      },
      el('td', { class: 'num rank' }, String(rank), move),
      el('th', { scope: 'row', class: 'vendor' }, el('span', { class: 'name' }, p.displayName || p.vendor),
        p.displayName && p.displayName !== p.vendor ? el('span', { class: 'id' }, p.vendor) : null,
        p.warnings && p.warnings.length ? el('span', { class: 'warn-flag', title: p.warnings.join('\n') }, t('warnCount', { n: p.warnings.length })) : null,
        p.complete === false ? el('span', { class: 'gap-flag', 'data-gaps': p.gaps.length, title: p.gaps.map(g => g.item + ': ' + g.reason).join('\n') },
          t('incomplete', { n: p.gaps.length })) : null,
        p.dated ? el('span', { class: 'dated-flag', title: t('datedTitle', { date: (p.priceDate || '').slice(0, 10) }) }, t('dated')) : null),
      el('td', { class: 'num monthly', 'data-value': p.monthlyTotal }, money(p.monthlyTotal)),
      el('td', { class: 'num horizon', 'data-value': p.horizonTotal }, money(p.horizonTotal)),
      el('td', { class: 'freshness' }, badge(p.freshness)),
      el('td', { class: 'savings' }, savings.length ? savings : el('span', { class: 'muted' }, '—')),
      el('td', { class: 'details' }, toggle));
      rows.push(tr);
      const detail = el('tr', { class: 'detail', id: detailId, 'data-detail-for': p.vendor, hidden: !open },
        el('td', { colspan: 7 }, planDetail(p, r)));
      rows.push(detail);
    });
    ui.tbody.replaceChildren(...rows);
  }

  function billTable(bill, currency) {
    const head = el('tr', null, ['billItem', 'billSpec', 'billQuantity', 'billUnitPrice', 'billPerMonth', 'billNote']
      .map(k => el('th', { scope: 'col', class: k === 'billUnitPrice' || k === 'billPerMonth' || k === 'billQuantity' ? 'num' : null }, t(k))));
    const body = (bill.lines || []).map(l => el('tr', { title: l.source || null, class: l.pricedBy === 'fallback' ? 'fallback' : null },
      el('td', null, l.item, l.pricedBy === 'fallback' ? el('span', { class: 'gap-flag', title: t('fallbackTitle') }, ' ' + t('fallback')) : null),
      el('td', { class: 'spec' }, l.spec),
      el('td', { class: 'num' }, l.quantity),
      el('td', { class: 'num', title: l.unitPrice }, unitPrice(l.unitPrice) + ' / ' + unitText(l.unit)),
      el('td', { class: 'num' }, money(l.perMonth)),
      el('td', { class: 'note' }, l.note || '')));
    const foot = el('tr', null, el('th', { scope: 'row', colspan: 4 }, t('billTotal', { cur: bill.currency || currency })),
      el('td', { class: 'num total' }, money(bill.monthlyTotal)), el('td'));
    return el('div', { class: 'table-wrap' }, el('table', { class: 'bill' }, el('thead', null, head), el('tbody', null, body), el('tfoot', null, foot)));
  }

  function planDetail(p, r) {
    const parts = [billTable(p.bill || {}, r.currency)];
    if (p.gaps && p.gaps.length) {
      parts.push(el('h4', null, t('gapsTitle')), el('ul', { class: 'gaps' }, p.gaps.map(g => el('li', null, el('strong', null, g.item), ': ', g.reason))));
    }
    const placements = p.placements || [];
    if (placements.length) {
      parts.push(el('h4', null, t('placements')), el('ul', { class: 'placements' }, placements.map(pl => el('li', null,
        el('strong', null, pl.workload), ' · ', t('cards', { n: pl.cards, gpu: pl.gpuName || pl.gpu }), ' · ', billingText(pl.billing),
        pl.region ? ' · ' + pl.region : '', ' · ', money(pl.perMonth) + ' ' + r.currency + ' / ' + unitText('month'),
        pl.explanation ? el('p', { class: 'explanation' }, pl.explanation) : null))));
    }
    const warnings = [...new Set([...(p.warnings || []), ...placements.flatMap(pl => pl.warnings || [])])];
    if (warnings.length) {
      parts.push(el('h4', null, t('warnings')), el('ul', { class: 'warnings' }, warnings.map(w => el('li', null, w))));
    }
    const fx = [...new Set([...(p.bill && p.bill.lines || []).map(l => l.fx), ...placements.map(pl => pl.fx)].filter(Boolean))];
    if (fx.length) parts.push(el('h4', null, t('fxNotes')), el('ul', { class: 'fx' }, fx.map(f => el('li', null, f))));
    if (p.note) parts.push(el('p', { class: 'vendor-note' }, el('strong', null, t('vendorNote') + ': '), p.note));
    if (p.winsAt) parts.push(el('p', { class: 'wins-at', 'data-discount': p.winsAt.discount || '' }, el('strong', null, t('winsAt') + ': '), p.winsAt.text));
    return el('div', { class: 'plan-detail' }, parts);
  }

  function renderMixed() {
    const r = state.ranking;
    const m = r && r.mixed;
    ui.mixed.hidden = !m;
    if (!m) {
      ui.mixed.replaceChildren();
      return;
    }
    const open = state.expanded.has('(mixed)');
    ui.mixed.replaceChildren(el('details', { open: open || null, 'data-vendor-mixed': m.homeVendor },
      el('summary', null, el('strong', null, t('mixedTitle')), ' — ',
        t('mixedText', { home: m.homeVendor, monthly: money(m.monthlyTotal) + ' ' + r.currency, horizon: money(m.horizonTotal),
          n: r.horizonMonths, saved: money(m.savingsVsBest) })),
      planDetail({ bill: m.bill, placements: m.placements || [], warnings: m.warnings || [], note: m.note }, r)));
    ui.mixed.firstChild.addEventListener('toggle', e => {
      if (e.target.open) state.expanded.add('(mixed)');
      else state.expanded.delete('(mixed)');
    });
  }

  function renderUnavailable() {
    const r = state.ranking;
    const list = (r && r.unavailable) || [];
    const notes = [];
    if (r && r.reference) {
      notes.push(el('p', { class: 'reference-note', 'data-reference': r.reference.vendor },
        t('referenceText', { name: r.reference.displayName || r.reference.vendor, monthly: money(r.reference.monthlyTotal) + ' ' + r.currency }),
        r.referenceNote ? ' ' + r.referenceNote : ''));
    }
    if (r && !r.mixed && r.mixedNote) notes.push(el('p', { class: 'mixed-note' }, t('noMixed') + ': ' + r.mixedNote));
    const excluded = r && r.excluded ? Object.entries(r.excluded) : [];
    if (excluded.length) {
      notes.push(el('p', { class: 'excluded-note' }, t('excludedText', { n: excluded.reduce((a, [, n]) => a + n, 0) }),
        ' (' + excluded.map(([k, n]) => k + ' ' + n).join(', ') + ')'));
    }
    ui.unavailable.hidden = list.length === 0 && notes.length === 0;
    ui.unavailable.replaceChildren(...notes, ...(list.length ? [el('h3', null, t('unavailableTitle')),
      el('ul', null, list.map(u => el('li', { 'data-vendor': u.vendor }, el('strong', null, u.vendor), ': ', u.reason)))] : []));
  }

  // --- the bar chart

  function renderChart() {
    const r = state.ranking;
    ui.chartTitle.textContent = r ? t('chartTitleCur', { cur: r.currency }) : t('chartTitle');
    if (state.chart) {
      state.chart.destroy();
      state.chart = null;
    }
    ui.chart.replaceChildren();
    const plans = r ? r.plans : [];
    ui.chart.closest('figure').hidden = plans.length === 0;
    if (!plans.length || !window.uPlot) return;
    const n = plans.length;
    const xs = plans.map((_, i) => i);
    const ys = plans.map(p => num(p.monthlyTotal));
    const names = plans.map(p => shorten(p.displayName || p.vendor, 28));
    ui.chart.setAttribute('aria-label', ui.chartTitle.textContent + ': '
      + plans.map((p, i) => names[i] + ' ' + money(p.monthlyTotal)).join('; '));
    const width = Math.max(260, Math.floor(ui.chart.clientWidth || ui.chart.parentElement.clientWidth));
    state.chartWidth = width;
    const font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';
    const labelWidth = Math.min(Math.round(width * 0.4), 12 + Math.max(...names.map(s => measure(s, font))));
    const max = Math.max(...ys);
    const best = '#0f766e';
    const rest = '#4a78b5';
    const opts = {
      width,
      height: 48 + n * 30,
      padding: [6, 24, 0, 0],
      legend: { show: false },
      cursor: { show: false },
      select: { show: false },
      scales: {
        x: { time: false, ori: 1, dir: -1, range: [-0.5, n - 0.5] },
        y: { ori: 0, dir: 1, range: () => [0, max > 0 ? max * 1.22 : 1] },
      },
      axes: [
        {
          scale: 'x', side: 3, size: labelWidth, gap: 6, font, stroke: '#1f2937',
          grid: { show: false }, ticks: { show: false },
          splits: () => xs, values: (u, splits) => splits.map(i => (Number.isInteger(i) && names[i] != null ? names[i] : '')),
        },
        {
          scale: 'y', side: 2, font, stroke: '#4b5563', size: 34, space: 64,
          grid: { stroke: '#e5e7eb', width: 1 }, ticks: { stroke: '#d1d5db', width: 1, size: 4 },
          values: (u, splits) => splits.map(v => compact(v)),
        },
      ],
      series: [
        {},
        {
          label: t('thMonthly'), width: 0, points: { show: false },
          fill: rest,
          paths: window.uPlot.paths.bars({ size: [0.68, 26], disp: { fill: { unit: 3, values: () => ys.map((_, i) => (i === 0 ? best : rest)) } } }),
        },
      ],
      hooks: {
        draw: [u => {
          const ctx = u.ctx;
          const dpr = window.devicePixelRatio || 1;
          ctx.save();
          ctx.font = font.replace('12px', (12 * dpr) + 'px');
          ctx.textBaseline = 'middle';
          ys.forEach((v, i) => {
            const x = u.valToPos(v, 'y', true);
            const y = u.valToPos(i, 'x', true);
            const label = money(v);
            const w = ctx.measureText(label).width;
            if (x + 6 * dpr + w > u.bbox.left + u.bbox.width) {
              ctx.fillStyle = '#ffffff';
              ctx.textAlign = 'right';
              ctx.fillText(label, x - 6 * dpr, y);
            } else {
              ctx.fillStyle = '#111827';
              ctx.textAlign = 'left';
              ctx.fillText(label, x + 6 * dpr, y);
            }
          });
          ctx.restore();
        }],
      },
    };
    state.chart = new window.uPlot(opts, [xs, ys], ui.chart);
  }

  let measureCtx = null;
  function measure(text, font) {
    measureCtx = measureCtx || document.createElement('canvas').getContext('2d');
    measureCtx.font = font;
    return Math.ceil(measureCtx.measureText(text).width);
  }

  function shorten(s, max) {
    return s.length > max ? s.slice(0, max - 1) + '…' : s;
  }

  // --- vendor freshness

  async function loadVendors() {
    try {
      const r = await fetch('/api/vendors', { headers: { Accept: 'application/json' } });
      if (!r.ok) throw new Error((await problem(r)).error || r.status);
      state.vendors = await r.json();
      state.vendorsAt = new Date();
      state.vendorsError = null;
    } catch (e) {
      state.vendorsError = e.message;
    }
    renderVendors();
  }

  function renderVendors() {
    ui.vendorsUpdated.textContent = state.vendorsError ? t('vendorsError', { msg: state.vendorsError })
      : state.vendorsAt ? t('vendorsUpdated', { time: time(state.vendorsAt) }) : '';
    ui.vendorsUpdated.classList.toggle('error-text', !!state.vendorsError);
    const list = state.vendors || [];
    const rows = [];
    for (const v of list) {
      rows.push(el('tr', { 'data-vendor': v.vendor, 'data-freshness': v.freshness, class: v.lastError ? 'has-error' : null },
        el('th', { scope: 'row', class: 'vendor', title: v.vendor }, v.name || v.vendor),
        el('td', null, badge(v.freshness),
          el('span', { class: 'age', title: v.lastSuccess ? dateTime(v.lastSuccess) : null },
            v.lastSuccess ? t('lastGood', { age: age(v.ageSeconds) }) : t('neverFetched'))),
        el('td', { class: 'num' }, v.quotes == null ? '—' : String(v.quotes))));
      if (v.lastError) {
        rows.push(el('tr', { class: 'vendor-error', 'data-error-for': v.vendor },
          el('td', { colspan: 3, class: 'last-error' }, t('lastError', { time: dateTime(v.lastErrorAt), msg: v.lastError }))));
      }
    }
    ui.vendorsBody.replaceChildren(...rows);
    if (hist.view) renderHistoryLegend();
  }

  // --- CSV download

  async function downloadCsv() {
    const s = readScenario();
    if (!s) {
      setStatus('invalid');
      return;
    }
    ui.csv.disabled = true;
    try {
      const r = await fetch('/api/rank', {
        method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/csv' }, body: JSON.stringify(s),
      });
      if (r.status === 400) {
        showErrors((await problem(r)).fields || []);
        setStatus('invalid');
        return;
      }
      if (!r.ok) {
        setStatus('error', { msg: (await problem(r)).error || r.status });
        return;
      }
      showErrors([]);
      // a byte-order mark so that spreadsheet programs read the file as UTF-8
      const blob = new Blob(['\ufeff', await r.text()], { type: 'text/csv;charset=utf-8' });
      const url = URL.createObjectURL(blob);
      const slug = String(s.name || 'ranking').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'ranking';
      const a = el('a', { href: url, download: 'gpurent-' + slug + '-' + new Date().toISOString().slice(0, 10) + '.csv', hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      setStatus('error', { msg: e.message });
    } finally {
      ui.csv.disabled = false;
    }
  }

  // --- price history: GET /api/history, /api/quotes, /api/snapshots and /api/snapshots/{id}/diff
  //
  // What the chart plots: a series prices a WHOLE offer per `unit` (hour, month or year). Each
  // point is divided by the offer's GPU count and by the hours of its unit (a month is 730 hours
  // and a year 8760, as the service counts), so an 8-GPU node and a 1-GPU one, hourly or monthly,
  // meet on one axis: price per GPU-hour. The GPU count is the offer's gpuCount in GET /api/quotes
  // when the offer is still listed, else read from the offer id ("H100_SXM x8" of imported market
  // history, "8x H100"); when neither says, the whole offer's price is drawn and its label marked *.
  // All vendors: one line per vendor, its cheapest offer and region on each date; at most
  // HISTORY_LINES lines, cheapest first by each vendor's last price, but the vendors quoted in the
  // newest snapshot before those last seen in the 30 days before it, and these before the older
  // ones (a price not seen for months is no offer to compare). One vendor picked: one line per offer and region of that vendor. Only the
  // currency most offers use is drawn (the others are named under the chart). Dates are UTC days,
  // as the snapshots are dated.

  const HISTORY_LINES = 8;
  // eight hues far apart, each dark enough to read on white; lines of vendors missing from the
  // newest snapshot are dashed
  const HISTORY_COLORS = ['#0f766e', '#2563eb', '#ea580c', '#9333ea', '#e11d48', '#65a30d', '#374151', '#ca8a04'];
  const HISTORY_DASH = [6, 4];
  const HISTORY_BILLINGS = ['on-demand', 'spot', 'monthly', '3-month', '6-month', 'yearly', '3-year'];
  const UNIT_HOURS = { hour: 1, month: 730, year: 8760 };
  const DAY_S = 86400;
  const SNAPSHOTS_EVERY_MS = 5 * 60 * 1000;
  const CHART_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';

  const hui = {
    gpu: $('#history-gpu'),
    billing: $('#history-billing'),
    vendor: $('#history-vendor'),
    csv: $('#history-csv'),
    status: $('#history-status'),
    message: $('#history-message'),
    figure: $('#history-figure'),
    caption: $('#history-caption'),
    chart: $('#history-chart'),
    legendCaption: $('#history-legend-caption'),
    thPrice: $('#history-th-price'),
    legendBody: $('#history-legend tbody'),
    more: $('#history-more'),
    notes: $('#history-notes'),
    thisGpu: $('#changes-this-gpu'),
    changesSummary: $('#changes-summary'),
    changesList: $('#changes-list'),
  };

  const hist = {
    gpus: [],              // GET /api/gpus
    gpu: 'h100-sxm',
    gpuChosen: false,      // the user picked a GPU: it no longer follows the scenario
    billing: 'on-demand',
    vendor: '',
    seq: 0,
    loading: false,
    result: null,          // {kind: 'ok' | 'none' | 'error', series, msg} for hist.gpu and hist.billing
    counts: new Map(),     // vendor|region|offer|billing -> gpuCount, from GET /api/quotes
    view: null,            // what is drawn: see historyView
    chart: null,
    chartWidth: 0,
    cursor: null,          // the data index under the mouse, or null
    snapshots: null,       // {kind: 'ok' | 'none' | 'error', list, msg} from GET /api/snapshots?limit=2
    diff: null,            // {kind: 'ok' | 'error', body, msg}
    names: new Map(),      // vendor id -> display name, from the latest snapshot
  };

  function fmtDay(sec, withTime) {
    const o = { timeZone: 'UTC', month: 'short', day: 'numeric' };
    if (withTime) Object.assign(o, { hour: '2-digit', minute: '2-digit', hour12: false });
    return new Date(sec * 1000).toLocaleString(locale(), o);
  }

  /** A UTC date, 2026-05-31 style (with the time when not midnight): how the snapshots are dated. */
  function isoDay(sec) {
    const s = new Date(sec * 1000).toISOString();
    return s.slice(11, 16) === '00:00' ? s.slice(0, 10) : s.slice(0, 10) + ' ' + s.slice(11, 16) + ' UTC';
  }

  function vendorName(id) {
    const live = (state.vendors || []).find(v => v.vendor === id);
    return (live && live.name) || hist.names.get(id) || id;
  }

  function gpuName(id) {
    const g = hist.gpus.find(x => x.id === id);
    return g ? g.name : id;
  }

  /** A catalog id for any spelling (id, name or alias), or null. */
  function resolveGpu(s) {
    if (!s) return null;
    const k = String(s).trim().toLowerCase();
    const g = hist.gpus.find(x => x.id.toLowerCase() === k || String(x.name).toLowerCase() === k
      || (x.aliases || []).some(a => String(a).toLowerCase() === k));
    return g ? g.id : null;
  }

  /** How many GPUs an offer has: {n, known}. See the comment at the top of this section. */
  function gpuCount(s) {
    const c = hist.counts.get([s.vendor, s.region, s.offer, s.billing].join('|'));
    if (c > 0) return { n: c, known: true };
    const m = /(?:^|[\s_-])x\s?(\d{1,3})$/i.exec(s.offer) || /^(\d{1,3})\s?x[\s_-]/i.exec(s.offer);
    if (m && Number(m[1]) > 0) return { n: Number(m[1]), known: true };
    return { n: 1, known: false };
  }

  async function fetchJson(url) {
    const r = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!r.ok) {
      const p = await problem(r);
      const e = new Error(p.error || String(r.status));
      e.status = r.status;
      throw e;
    }
    return r.json();
  }

  async function initHistory() {
    fillHistoryBillings();
    hui.billing.value = hist.billing;
    hui.gpu.addEventListener('change', () => {
      hist.gpu = hui.gpu.value;
      hist.gpuChosen = true;
      hist.vendor = '';
      loadHistory();
      renderChanges();
    });
    hui.billing.addEventListener('change', () => {
      hist.billing = hui.billing.value;
      loadHistory();
    });
    hui.vendor.addEventListener('change', () => {
      hist.vendor = hui.vendor.value;
      hist.cursor = null;
      renderHistory();
    });
    hui.thisGpu.addEventListener('change', renderChanges);
    hui.legendBody.addEventListener('mouseover', e => focusLine(e.target.closest('tr[data-line]')));
    hui.legendBody.addEventListener('mouseleave', () => focusLine(null));
    if (window.ResizeObserver) {
      let pending = 0;
      new ResizeObserver(() => {
        clearTimeout(pending);
        pending = setTimeout(() => {
          const w = Math.floor(hui.chart.clientWidth);
          if (hist.chart && w > 0 && Math.abs(w - hist.chartWidth) > 8) {
            hist.chartWidth = w;
            hist.chart.setSize({ width: w, height: historyHeight(w) });
          }
        }, 150);
      }).observe(hui.chart);
    }
    renderHistoryLink();
    try {
      hist.gpus = await fetchJson('/api/gpus');
    } catch (e) {
      hist.gpus = [];
    }
    fillHistoryGpus();
    if (!hist.gpus.some(g => g.id === hist.gpu) && hist.gpus.length) hist.gpu = hist.gpus[0].id;
    followScenario(state.scenario);
    hui.gpu.value = hist.gpu;
    loadHistory();
    loadChanges();
    setInterval(loadChanges, SNAPSHOTS_EVERY_MS);
  }

  function fillHistoryBillings() {
    const v = hui.billing.value || hist.billing;
    hui.billing.replaceChildren(...HISTORY_BILLINGS.map(b => el('option', { value: b }, billingText(b))));
    hui.billing.value = v;
  }

  function fillHistoryGpus() {
    hui.gpu.replaceChildren(...hist.gpus.map(g => el('option', { value: g.id }, g.name)));
    hui.gpu.value = hist.gpu;
  }

  /** Until the user picks a GPU, the panel shows the first GPU of the live scenario (else H100 SXM). */
  function followScenario(s) {
    if (hist.gpuChosen || !s || !hist.gpus.length) return false;
    const w = (Array.isArray(s.workloads) ? s.workloads : []).find(x => x && (x.gpu || (Array.isArray(x.gpus) && x.gpus.length)));
    const id = w ? resolveGpu(w.gpu || w.gpus[0]) : null;
    if (!id || id === hist.gpu) return false;
    hist.gpu = id;
    hist.vendor = '';
    hui.gpu.value = id;
    return true;
  }

  function scenarioChanged(s) {
    if (followScenario(s)) {
      loadHistory();
      renderChanges();
    }
  }

  async function loadHistory() {
    const seq = ++hist.seq;
    const gpu = hist.gpu;
    const billing = hist.billing;
    hist.loading = true;
    renderHistoryLink();
    renderHistoryStatus();
    const q = 'gpu=' + encodeURIComponent(gpu) + '&billing=' + encodeURIComponent(billing);
    // the offers' GPU counts: a help, not a need
    const counts = fetchJson('/api/quotes?limit=5000&' + q).then(b => b.quotes || []).catch(() => []);
    let result;
    try {
      const series = await fetchJson('/api/history?' + q);
      result = { kind: 'ok', series: Array.isArray(series) ? series : [] };
    } catch (e) {
      result = e.status === 503 ? { kind: 'none' } : { kind: 'error', msg: e.message };
    }
    const quotes = await counts;
    if (seq !== hist.seq) return;  // a newer choice is on its way
    hist.counts = new Map(quotes.filter(x => x.gpuCount > 0)
      .map(x => [[x.vendor, x.region || '', x.offer, x.billing].join('|'), Number(x.gpuCount)]));
    hist.loading = false;
    hist.result = result;
    hist.cursor = null;
    renderHistory();
  }

  /** The lines to draw for the current result and vendor filter. */
  function historyView() {
    const r = hist.result;
    if (!r || r.kind !== 'ok' || !r.series.length) return null;
    const usable = r.series.filter(s => UNIT_HOURS[s.unit] && s.points && s.points.length);
    const perCurrency = new Map();
    usable.forEach(s => perCurrency.set(s.currency, (perCurrency.get(s.currency) || 0) + 1));
    const currency = [...perCurrency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (!currency) return null;
    const cur = currency[0];
    const others = [...perCurrency.entries()].filter(([c]) => c !== cur);
    const inCur = usable.filter(s => s.currency === cur);
    const vendors = [...new Set(inCur.map(s => s.vendor))].sort((a, b) => vendorName(a).localeCompare(vendorName(b)));
    const vendor = hist.vendor && vendors.includes(hist.vendor) ? hist.vendor : '';
    const chosen = vendor ? inCur.filter(s => s.vendor === vendor) : inCur;

    const xset = new Set();
    chosen.forEach(s => s.points.forEach(p => xset.add(Math.round(Date.parse(p.at) / 1000))));
    const xs = [...xset].sort((a, b) => a - b);
    const at = new Map(xs.map((x, i) => [x, i]));
    const groups = new Map();
    for (const s of chosen) {
      const key = vendor ? s.region + '|' + s.offer : s.vendor;
      let g = groups.get(key);
      if (!g) {
        g = { key, vendor: s.vendor, region: s.region, offer: s.offer, values: new Array(xs.length).fill(null), src: new Array(xs.length).fill(null) };
        groups.set(key, g);
      }
      const count = gpuCount(s);
      const hours = UNIT_HOURS[s.unit];
      for (const p of s.points) {
        const v = num(p.price) / count.n / hours;
        const i = at.get(Math.round(Date.parse(p.at) / 1000));
        if (!Number.isFinite(v) || i == null) continue;
        if (g.values[i] == null || v < g.values[i]) {
          g.values[i] = v;
          g.src[i] = { offer: s.offer, region: s.region, n: count.n, known: count.known, price: p.price, unit: s.unit };
        }
      }
    }
    const newest = xs.length - 1;
    const list = [...groups.values()];
    for (const g of list) {
      let li = -1;
      for (let i = newest; i >= 0; i--) if (g.values[i] != null) { li = i; break; }
      g.lastIdx = li;
      g.last = li >= 0 ? g.values[li] : Infinity;
      g.current = li === newest;
      // quoted in the newest snapshot; else seen in the 30 days before it; else older
      g.tier = g.current ? 0 : li >= 0 && xs[newest] - xs[li] <= 30 * DAY_S ? 1 : 2;
      g.perOffer = g.src.some(x => x && !x.known);
      g.label = vendor ? g.offer + (g.region ? ' · ' + g.region : '') : vendorName(g.vendor);
    }
    list.sort((a, b) => (a.tier - b.tier) || (a.last - b.last) || a.label.localeCompare(b.label));
    const lines = list.slice(0, HISTORY_LINES);
    // a vendor missing from one or two snapshots in a row is joined over (undefined);
    // longer absences stay gaps (null)
    for (const g of lines) {
      g.data = g.values.slice();
      let prev = -1;
      for (let i = 0; i < g.data.length; i++) {
        if (g.data[i] == null) continue;
        if (prev >= 0 && i - prev > 1 && i - prev <= 3) for (let j = prev + 1; j < i; j++) g.data[j] = undefined;
        prev = i;
      }
    }
    const offers = new Set(chosen.map(s => s.vendor + '|' + s.region + '|' + s.offer)).size;
    return {
      currency: cur, others, vendors, vendor, xs, lines, rest: list.slice(HISTORY_LINES), offers,
      vendorCount: new Set(chosen.map(s => s.vendor)).size,
    };
  }

  function renderHistory() {
    hist.view = historyView();
    if (hist.vendor && (!hist.view || !hist.view.vendor)) hist.vendor = '';
    fillHistoryVendors();
    renderHistoryLink();
    renderHistoryStatus();
    renderHistoryChart();
    renderHistoryLegend();
  }

  function fillHistoryVendors() {
    const vs = hist.view ? hist.view.vendors : [];
    hui.vendor.replaceChildren(el('option', { value: '' }, t('historyAllVendors', { n: HISTORY_LINES })),
      ...vs.map(v => el('option', { value: v }, vendorName(v))));
    hui.vendor.value = hist.vendor;
    hui.vendor.disabled = vs.length === 0;
  }

  function renderHistoryLink() {
    const q = '/api/history?gpu=' + encodeURIComponent(hist.gpu) + '&billing=' + encodeURIComponent(hist.billing)
      + (hist.vendor ? '&vendor=' + encodeURIComponent(hist.vendor) : '');
    hui.csv.href = q + '&format=csv';
    hui.csv.setAttribute('download', ['gpurent-history', hist.gpu, hist.billing, hist.vendor].filter(Boolean).join('-')
      .replace(/[^a-zA-Z0-9._-]+/g, '-') + '.csv');
    hui.csv.title = t('historyCsvTitle');
  }

  function renderHistoryStatus() {
    const r = hist.result;
    const v = hist.view;
    let status = '';
    let message = null;
    let kind = 'empty';
    if (hist.loading) {
      status = t('historyLoading');
      kind = 'loading';
    } else if (!r) {
      status = '';
    } else if (r.kind === 'none') {
      message = t('historyNone');
    } else if (r.kind === 'error') {
      message = t('historyError', { msg: r.msg });
      kind = 'error';
    } else if (!r.series.length && hist.snapshots && hist.snapshots.kind !== 'ok') {
      message = t('historyNone');
    } else if (!v || !v.lines.length) {
      message = t('historyEmpty', { gpu: gpuName(hist.gpu), billing: billingText(hist.billing) });
    } else {
      kind = 'ok';
      status = t(v.vendor ? 'historyLoadedVendor' : 'historyLoaded', { offers: v.offers, vendors: v.vendorCount, from: isoDay(v.xs[0]), to: isoDay(v.xs[v.xs.length - 1]), points: v.xs.length });
    }
    hui.csv.hidden = !!r && !hist.loading && (r.kind === 'none' || r.kind === 'error');
    hui.status.textContent = status;
    hui.message.hidden = message == null || hist.loading;
    hui.message.textContent = message || '';
    hui.message.dataset.kind = kind;
    hui.message.classList.toggle('error-text', kind === 'error');
    document.getElementById('history').dataset.state = kind;
  }

  function historyHeight(width) {
    return width < 520 ? 240 : 300;
  }

  function renderHistoryChart() {
    if (hist.chart) {
      hist.chart.destroy();
      hist.chart = null;
    }
    hui.chart.replaceChildren();
    const v = hist.view;
    const show = !hist.loading && !!v && v.lines.length > 0;
    hui.figure.hidden = !show;
    if (!show) return;
    hui.caption.textContent = t(v.vendor ? 'historyCaptionVendor' : 'historyCaption',
      { gpu: gpuName(hist.gpu), billing: billingText(hist.billing), cur: v.currency, vendor: vendorName(v.vendor),
        n: v.lines.length, total: v.lines.length + v.rest.length });
    hui.thPrice.textContent = t('historyThPriceCur', { cur: v.currency });
    hui.chart.setAttribute('aria-label', hui.caption.textContent + ': ' + v.lines.map(g => g.label + ' '
      + unitPrice(g.last) + (g.current ? '' : ' (' + isoDay(v.xs[g.lastIdx]) + ')')).join('; '));
    if (!window.uPlot) return;
    const width = Math.max(260, Math.floor(hui.chart.clientWidth || hui.figure.clientWidth));
    hist.chartWidth = width;
    const max = Math.max(...v.lines.flatMap(g => g.values.filter(x => x != null)));
    const opts = {
      width,
      height: historyHeight(width),
      padding: [10, 14, 0, 2],
      legend: { show: false },
      tzDate: ts => window.uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
      cursor: { drag: { x: true, y: false, setScale: true }, focus: { prox: 20 }, points: { size: 7 } },
      focus: { alpha: 0.25 },
      // one snapshot so far: a day either side of it
      scales: { x: v.xs.length > 1 ? { time: true } : { time: true, range: () => [v.xs[0] - DAY_S, v.xs[0] + DAY_S] },
        y: { range: () => [0, max > 0 ? max * 1.08 : 1] } },
      axes: [
        {
          font: CHART_FONT, stroke: '#4b5563', space: 70,
          grid: { stroke: '#eef0f3', width: 1 }, ticks: { stroke: '#d1d5db', width: 1, size: 4 },
          values: (u, splits, ai, space, incr) => splits.map(s => fmtDay(s, incr < DAY_S)),
        },
        {
          font: CHART_FONT, stroke: '#4b5563', size: 52, space: 36,
          grid: { stroke: '#e5e7eb', width: 1 }, ticks: { stroke: '#d1d5db', width: 1, size: 4 },
          values: (u, splits) => splits.map(x => money(x)),
        },
      ],
      series: [{}].concat(v.lines.map((g, i) => ({
        label: g.label, stroke: HISTORY_COLORS[i % HISTORY_COLORS.length], width: 2, dash: g.current ? undefined : HISTORY_DASH,
        points: { size: 5, fill: HISTORY_COLORS[i % HISTORY_COLORS.length] },
      }))),
      hooks: {
        setCursor: [u => {
          const i = u.cursor.idx == null ? null : u.cursor.idx;
          if (i !== hist.cursor) {
            hist.cursor = i;
            renderHistoryLegend();
          }
        }],
      },
    };
    hist.chart = new window.uPlot(opts, [v.xs, ...v.lines.map(g => g.data)], hui.chart);
  }

  function focusLine(tr) {
    if (!hist.chart) return;
    const i = tr ? Number(tr.dataset.line) : null;
    hist.chart.setSeries(i == null ? null : i + 1, { focus: true });
  }

  /** The offer behind a legend value; with one vendor picked the line is the offer, so only its price as quoted. */
  function offerText(src, oneVendor) {
    if (!src) return '';
    const parts = oneVendor ? [] : [src.offer];
    if (src.region && !oneVendor) parts.push(src.region);
    if (oneVendor && src.n <= 1 && src.unit === 'hour') parts.push(unitPrice(src.price) + ' / ' + unitText(src.unit));
    if (src.n > 1) parts.push(t('historyGpus', { n: src.n }) + ': ' + unitPrice(src.price) + ' / ' + unitText(src.unit));
    else if (src.unit !== 'hour') parts.push(unitPrice(src.price) + ' / ' + unitText(src.unit));
    return parts.join(' · ');
  }

  function renderHistoryLegend() {
    const v = hist.view;
    if (!v || !v.lines.length) {
      hui.legendBody.replaceChildren();
      hui.more.hidden = true;
      hui.notes.hidden = true;
      return;
    }
    const i = hist.cursor;
    hui.legendCaption.textContent = i == null ? t('historyLegendLatest') : t('historyLegendAt', { date: isoDay(v.xs[i]) });
    $('#history-legend thead th:nth-child(3)').textContent = t(v.vendor ? 'historyThOfferOne' : 'historyThOffer');
    hui.legendBody.replaceChildren(...v.lines.map((g, k) => {
      const idx = i == null ? g.lastIdx : i;
      const value = g.values[idx];
      const src = g.src[idx];
      const color = HISTORY_COLORS[k % HISTORY_COLORS.length];
      const label = g.label + (g.perOffer ? ' *' : '');
      return el('tr', { 'data-line': k, 'data-vendor': g.vendor, 'data-key': g.key, 'data-value': value == null ? null : String(value) },
        el('th', { scope: 'row', class: 'vendor' }, el('span', {
          class: 'swatch' + (g.current ? '' : ' dashed'), style: '--c:' + color, 'aria-hidden': 'true',
        }), ' ', label),
        el('td', { class: 'num price' }, value == null ? '—' : unitPrice(value)),
        el('td', { class: 'offer' }, offerText(src, !!v.vendor),
          i == null && !g.current && g.lastIdx >= 0 ? el('span', { class: 'muted' }, (offerText(src, !!v.vendor) ? ' · ' : '') + t('historyLastSeen', { date: isoDay(v.xs[g.lastIdx]) })) : null));
    }));
    const more = v.rest.map(g => g.label);
    hui.more.hidden = more.length === 0;
    hui.more.textContent = more.length ? t(v.vendor ? 'historyMoreOffers' : 'historyMore',
      { n: more.length, names: more.slice(0, 15).join(', ') + (more.length > 15 ? ', …' : '') }) : '';
    const notes = [];
    if (v.lines.some(g => g.perOffer)) notes.push(t('historyPerOffer'));
    if (v.others.length) {
      notes.push(t('historyOtherCurrency', { n: v.others.reduce((a, [, n]) => a + n, 0), list: v.others.map(([c]) => c).join(', ') }));
    }
    hui.notes.hidden = notes.length === 0;
    hui.notes.textContent = notes.join(' ');
  }

  // what changed since the previous snapshot

  async function loadChanges() {
    let snaps;
    try {
      const list = await fetchJson('/api/snapshots?limit=2');
      snaps = { kind: list.length ? 'ok' : 'none', list };
    } catch (e) {
      snaps = e.status === 503 ? { kind: 'none', list: [] } : { kind: 'error', msg: e.message, list: [] };
    }
    const newest = snaps.list[0];
    const before = hist.snapshots && hist.snapshots.list[0];
    const renew = !before || !newest || before.id !== newest.id;
    hist.snapshots = snaps;
    if (newest) (newest.vendors || []).forEach(v => { if (v.displayName) hist.names.set(v.vendor, v.displayName); });
    if (snaps.list.length >= 2 && (renew || !hist.diff || hist.diff.kind !== 'ok')) {
      try {
        hist.diff = { kind: 'ok', body: await fetchJson('/api/snapshots/' + encodeURIComponent(newest.id) + '/diff') };
      } catch (e) {
        hist.diff = { kind: 'error', msg: e.message };
      }
    } else if (snaps.list.length < 2) {
      hist.diff = null;
    }
    renderChanges();
    // a new snapshot (the nightly one): the chart gets its prices too
    if (renew && before && newest && !hist.loading) loadHistory();
    else if (!hist.loading) {
      renderHistoryStatus();  // "no history yet" needs to know whether there are snapshots at all
      renderHistoryLegend();
    }
  }

  function snapDate(meta) {
    return meta ? isoDay(Math.round(Date.parse(meta.takenAt) / 1000)) : '—';
  }

  function pct(p) {
    return new Intl.NumberFormat(locale(), { signDisplay: 'exceptZero', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p) + ' %';
  }

  function renderChanges() {
    const s = hist.snapshots;
    const items = [];
    let summary = '';
    hui.thisGpu.parentElement.hidden = true;
    if (!s) {
      summary = '';
    } else if (s.kind === 'error') {
      summary = t('changesError', { msg: s.msg });
    } else if (!s.list.length) {
      summary = t('changesNoSnapshots');
    } else if (s.list.length < 2) {
      summary = t('changesOnlyOne', { date: snapDate(s.list[0]) });
    } else if (!hist.diff) {
      summary = '';
    } else if (hist.diff.kind === 'error') {
      summary = t('changesError', { msg: hist.diff.msg });
    } else {
      const d = hist.diff.body;
      hui.thisGpu.parentElement.hidden = false;
      summary = t('changesSummary', {
        date: snapDate(d.snapshot), against: snapDate(d.against), changed: (d.changed || []).length,
        added: (d.added || []).length, removed: (d.removed || []).length, unchanged: d.unchanged,
      });
      const only = hui.thisGpu.checked;
      const list = (d.changed || []).filter(c => !only || c.gpu === hist.gpu)
        .slice().sort((a, b) => (b.percent == null ? -1 : Math.abs(b.percent)) - (a.percent == null ? -1 : Math.abs(a.percent)))
        .slice(0, 10);
      if (!list.length) {
        summary += ' ' + (only ? t('changesNoneGpu', { gpu: gpuName(hist.gpu) }) : t('changesNoneAll'));
      } else {
        summary += ' ' + t('changesTop', { n: list.length });
      }
      for (const c of list) {
        const up = c.percent > 0;
        const down = c.percent < 0;
        const arrow = c.percent == null ? '≠' : up ? '▲' : down ? '▼' : '=';
        const move = c.percent == null ? t('changesTerms') : pct(c.percent);
        const after = unitPrice(c.after) + ' ' + c.currency + ' / ' + unitText(c.unit);
        const before = unitPrice(c.before) + (c.percent == null ? ' ' + (c.beforeCurrency || '') + ' / ' + unitText(c.beforeUnit || c.unit) : '');
        items.push(el('li', { 'data-vendor': c.vendor, 'data-percent': c.percent == null ? null : String(c.percent), class: up ? 'up' : down ? 'down' : null },
          el('span', { class: 'chg' }, el('span', { 'aria-hidden': 'true' }, arrow), ' ', move),
          ' ', el('strong', null, vendorName(c.vendor)), ' ',
          [only ? null : gpuName(c.gpu), c.offer, c.region || null, billingText(c.billing)].filter(Boolean).join(' · '),
          ': ', after, ' ', el('span', { class: 'muted' }, '(' + t('changesWas', { before }) + ')')));
      }
    }
    hui.changesSummary.textContent = summary;
    hui.changesList.replaceChildren(...items);
    hui.changesList.hidden = items.length === 0;
  }

  /** After a language switch: the labels, not the data. */
  function relabelHistory() {
    fillHistoryBillings();
    renderHistory();
    renderChanges();
  }

  // --- wiring

  function init() {
    document.querySelectorAll('.lang button').forEach(b => b.addEventListener('click', () => setLang(b.dataset.lang)));
    ui.preset.addEventListener('change', () => loadPreset(ui.preset.value));
    ui.json.addEventListener('input', () => { ui.preset.value = ''; });
    ui.rank.addEventListener('click', rankLive);
    ui.csv.addEventListener('click', downloadCsv);
    ui.format.addEventListener('click', () => {
      const s = readScenario();
      if (s) {
        ui.json.value = JSON.stringify(s, null, 2);
        showErrors([]);
      }
    });
    ui.errorList.addEventListener('click', e => {
      const b = e.target.closest('button.field-link');
      if (b) locateField(b.dataset.field);
    });
    ui.tbody.addEventListener('click', e => {
      const b = e.target.closest('button.toggle');
      if (!b) return;
      const v = b.dataset.vendor;
      const open = b.getAttribute('aria-expanded') !== 'true';
      if (open) state.expanded.add(v);
      else state.expanded.delete(v);
      b.setAttribute('aria-expanded', String(open));
      const detail = document.getElementById(b.getAttribute('aria-controls'));
      if (detail) detail.hidden = !open;
    });
    if (window.ResizeObserver) {
      let pending = 0;
      new ResizeObserver(() => {
        clearTimeout(pending);
        pending = setTimeout(() => {
          const w = Math.floor(ui.chart.clientWidth);
          if (state.ranking && Math.abs(w - state.chartWidth) > 8) renderChart();
        }, 150);
      }).observe(ui.chart);
    }
    window.addEventListener('pagehide', () => { if (state.scenarioId) forget(state.scenarioId); });
    document.getElementById('qs-form').addEventListener('submit', uploadQuoteSheet);
    setLang(initialLang());
    setStatus('idle');
    loadPresets();
    loadVendors();
    setInterval(loadVendors, VENDORS_EVERY_MS);
    initHistory();
  }

  init();
})();
