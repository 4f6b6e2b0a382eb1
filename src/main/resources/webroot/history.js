// Price history: GET /api/history (series per canonical vendor, gpuCount, converted to the
// scenario's currency on the server, which says the rate's date) and "what changed" between two
// snapshots of one origin (fetched, or imported market history), named.
//
// What the chart plots: each point is an offer's price divided by its gpuCount and the hours of
// its unit (730 a month, 8760 a year), so nodes of 1 and 8 GPUs meet on one axis, per GPU-hour.
// All vendors: one line per vendor (its cheapest offer on each date), at most LINES, those in the
// newest snapshot first, then those seen in the 30 days before it, cheapest first. One vendor: a
// line per offer. A line is joined over at most two missing sampling periods (the median spacing
// of the snapshots) and broken past that, also where no snapshot was taken at all; a price with
// no neighbour on either side is drawn as a dot.
import { state } from './state.js';
import { el, $ } from './dom.js';
import { t, vendorName as named } from './i18n.js';
import { num, unitPrice, isoDay, shortDay, money, pct } from './format.js';
import { billingText, unitText } from './ranking.js';
import * as api from './api.js';

const LINES = 8;
const COLORS = ['#0f766e', '#2563eb', '#ea580c', '#9333ea', '#e11d48', '#65a30d', '#374151', '#ca8a04'];
const DASH = [6, 4];
const BILLINGS = ['on-demand', 'spot', 'monthly', '3-month', '6-month', 'yearly', '3-year'];
const UNIT_HOURS = { hour: 1, month: 730, year: 8760 };
const DAY_S = 86400;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';

const h = {
  gpus: [],
  gpu: 'h100-sxm',
  gpuChosen: false,
  billing: 'on-demand',
  vendor: '',
  currency: null,
  seq: 0,
  loading: false,
  result: null,          // {kind: 'ok' | 'none' | 'error', series, msg}
  view: null,
  chart: null,
  width: 0,
  cursor: null,
  snapshots: null,       // {kind, list, msg}
  diff: null,            // {kind, body, msg, origin}
  names: new Map(),
};

const vendorName = id => {
  const live = (state.vendors || []).find(v => v.vendor === id);
  return named(id, (live && live.name) || h.names.get(id) || id);
};
const gpuName = id => (h.gpus.find(g => g.id === id) || { name: id }).name;
const origin = meta => (meta && meta.kind === 'import' ? 'import' : 'fetched');

export async function initHistory() {
  fillBillings();
  $('#history-gpu').addEventListener('change', e => { h.gpu = e.target.value; h.gpuChosen = true; h.vendor = ''; load(); renderChanges(); });
  $('#history-billing').addEventListener('change', e => { h.billing = e.target.value; load(); });
  $('#history-vendor').addEventListener('change', e => { h.vendor = e.target.value; h.cursor = null; render(); });
  $('#changes-this-gpu').addEventListener('change', renderChanges);
  if (window.ResizeObserver) {
    let pending = 0;
    new ResizeObserver(() => {
      clearTimeout(pending);
      pending = setTimeout(() => {
        const w = Math.floor($('#history-chart').clientWidth);
        if (h.chart && w > 0 && Math.abs(w - h.width) > 8) {
          h.width = w;
          h.chart.setSize({ width: w, height: height(w) });
        }
      }, 150);
    }).observe($('#history-chart'));
  }
  try {
    h.gpus = await api.getJson('/api/gpus');
  } catch (e) {
    h.gpus = [];
  }
  $('#history-gpu').replaceChildren(...h.gpus.map(g => el('option', { value: g.id }, g.name)));
  follow(state.scenario);
  $('#history-gpu').value = h.gpu;
  load();
  loadChanges();
}

/** Until the user picks a GPU the panel follows the scenario's first card, and always its currency. */
export function follow(s) {
  if (!s) return false;
  let changed = false;
  const cur = s.currency ? String(s.currency).toUpperCase() : 'USD';
  if (cur !== h.currency) {
    h.currency = cur;
    changed = true;
  }
  if (!h.gpuChosen && h.gpus.length) {
    const w = (Array.isArray(s.workloads) ? s.workloads : []).find(x => x && x.gpu);
    const g = w && h.gpus.find(x => [x.id, x.name, ...(x.aliases || [])].some(a => String(a).toLowerCase() === String(w.gpu).toLowerCase()));
    if (g && g.id !== h.gpu) {
      h.gpu = g.id;
      h.vendor = '';
      $('#history-gpu').value = g.id;
      changed = true;
    }
  }
  return changed;
}

export function scenarioChanged(s) {
  if (follow(s) && h.gpus.length) {
    load();
    renderChanges();
  }
}

async function load() {
  const mine = ++h.seq;
  h.loading = true;
  renderLink();
  renderStatus();
  const q = 'gpu=' + encodeURIComponent(h.gpu) + '&billing=' + encodeURIComponent(h.billing) + (h.currency ? '&currency=' + h.currency : '');
  let result;
  try {
    const series = await api.getJson('/api/history?' + q);
    result = { kind: 'ok', series: Array.isArray(series) ? series : [] };
  } catch (e) {
    result = e.status === 503 ? { kind: 'none' } : { kind: 'error', msg: e.message };
  }
  if (mine !== h.seq) return;
  h.loading = false;
  h.result = result;
  h.cursor = null;
  render();
}

/** The lines to draw; see the comment at the top. */
function view() {
  const r = h.result;
  if (!r || r.kind !== 'ok' || !r.series.length) return null;
  const usable = r.series.filter(s => UNIT_HOURS[s.unit] && s.points && s.points.length);
  const perCurrency = new Map();
  usable.forEach(s => perCurrency.set(s.currency, (perCurrency.get(s.currency) || 0) + 1));
  const cur = perCurrency.has(h.currency) ? h.currency
    : ([...perCurrency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] || [null])[0];
  if (!cur) return null;
  const others = [...perCurrency.entries()].filter(([c]) => c !== cur);
  const inCur = usable.filter(s => s.currency === cur);
  const vendors = [...new Set(inCur.map(s => s.vendor))].sort((a, b) => vendorName(a).localeCompare(vendorName(b)));
  const vendor = h.vendor && vendors.includes(h.vendor) ? h.vendor : '';
  const chosen = vendor ? inCur.filter(s => s.vendor === vendor) : inCur;
  const fx = [...new Map(chosen.filter(s => s.fx).map(s => [s.fx.from, s.fx])).values()];

  const dated = [...new Set(chosen.flatMap(s => s.points.map(p => Math.round(Date.parse(p.at) / 1000))))].sort((a, b) => a - b);
  const period = samplingPeriod(dated);
  // an empty x in every stretch with no snapshot longer than two periods, so no line crosses it
  const xs = [];
  dated.forEach((x, i) => {
    if (i > 0 && x - dated[i - 1] > 2 * period) xs.push(Math.round((x + dated[i - 1]) / 2));
    xs.push(x);
  });
  const at = new Map(xs.map((x, i) => [x, i]));
  const groups = new Map();
  for (const s of chosen) {
    const key = vendor ? s.region + '|' + s.offer : s.vendor;
    let g = groups.get(key);
    if (!g) {
      g = { key, vendor: s.vendor, region: s.region, offer: s.offer, values: new Array(xs.length).fill(null), src: new Array(xs.length).fill(null) };
      groups.set(key, g);
    }
    const n = s.gpuCount > 0 ? s.gpuCount : 1;
    for (const p of s.points) {
      const v = num(p.price) / n / UNIT_HOURS[s.unit];
      const i = at.get(Math.round(Date.parse(p.at) / 1000));
      if (!Number.isFinite(v) || i == null) continue;
      if (g.values[i] == null || v < g.values[i]) {
        g.values[i] = v;
        g.src[i] = { offer: s.offer, region: s.region, n, price: p.price, unit: s.unit };
      }
    }
  }
  const newest = xs.length - 1;
  const list = [...groups.values()];
  for (const g of list) {
    const idx = g.values.map((v, i) => (v == null ? -1 : i)).filter(i => i >= 0);
    g.lastIdx = idx.length ? idx[idx.length - 1] : -1;
    g.last = g.lastIdx >= 0 ? g.values[g.lastIdx] : Infinity;
    g.current = g.lastIdx === newest;
    g.tier = g.current ? 0 : g.lastIdx >= 0 && xs[newest] - xs[g.lastIdx] <= 30 * DAY_S ? 1 : 2;
    g.points = idx.length;
    g.label = vendor ? g.offer + (g.region ? ' · ' + g.region : '') : vendorName(g.vendor);
    // joined over short absences (undefined); longer ones stay gaps (null)
    g.data = g.values.slice();
    for (let k = 1; k < idx.length; k++) {
      if (xs[idx[k]] - xs[idx[k - 1]] <= 2 * period) for (let j = idx[k - 1] + 1; j < idx[k]; j++) g.data[j] = undefined;
    }
    g.lone = idx.filter(i => (i === 0 || g.data[i - 1] === null) && (i === newest || g.data[i + 1] === null));
  }
  list.sort((a, b) => (a.tier - b.tier) || (a.last - b.last) || a.label.localeCompare(b.label));
  return {
    currency: cur, others, vendors, vendor, xs, fx, period,
    lines: list.slice(0, LINES), rest: list.slice(LINES), snapshots: dated.length,
  };
}

/** The usual spacing of the snapshots: the median gap between dates, a day if there is one date. */
function samplingPeriod(xs) {
  if (xs.length < 2) return DAY_S;
  const d = xs.slice(1).map((x, i) => x - xs[i]).sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)];
}

export function render() {
  h.view = view();
  if (h.vendor && (!h.view || !h.view.vendor)) h.vendor = '';
  const vs = h.view ? h.view.vendors : [];
  const sel = $('#history-vendor');
  sel.replaceChildren(el('option', { value: '' }, t('historyAllVendors', { n: LINES })), ...vs.map(v => el('option', { value: v }, vendorName(v))));
  sel.value = h.vendor;
  sel.disabled = vs.length === 0;
  fillBillings();
  renderLink();
  renderStatus();
  renderChart();
  renderLegend();
}

function fillBillings() {
  const s = $('#history-billing');
  s.replaceChildren(...BILLINGS.map(b => el('option', { value: b }, billingText(b))));
  s.value = h.billing;
}

function renderLink() {
  const a = $('#history-csv');
  a.href = '/api/history?gpu=' + encodeURIComponent(h.gpu) + '&billing=' + encodeURIComponent(h.billing)
    + (h.vendor ? '&vendor=' + encodeURIComponent(h.vendor) : '') + '&format=csv';
  a.setAttribute('download', ['gpurent-history', h.gpu, h.billing, h.vendor].filter(Boolean).join('-').replace(/[^a-zA-Z0-9._-]+/g, '-') + '.csv');
}

function renderStatus() {
  const r = h.result;
  const v = h.view;
  let status = '';
  let message = null;
  let kind = 'empty';
  if (h.loading) {
    status = t('historyLoading');
    kind = 'loading';
  } else if (!r) {
    status = '';
  } else if (r.kind === 'none') {
    message = t('historyNone');
  } else if (r.kind === 'error') {
    message = t('historyError', { msg: r.msg });
    kind = 'error';
  } else if (!v || !v.lines.length) {
    message = t('historyEmpty', { gpu: gpuName(h.gpu), billing: billingText(h.billing) });
  } else {
    kind = 'ok';
    status = t('historyLoaded', { from: isoDay(v.xs[0]), to: isoDay(v.xs[v.xs.length - 1]), points: v.snapshots });
  }
  $('#history-csv').hidden = !!r && !h.loading && (r.kind === 'none' || r.kind === 'error');
  $('#history-status').textContent = status;
  const m = $('#history-message');
  m.hidden = message == null || h.loading;
  m.textContent = message || '';
  m.classList.toggle('error-text', kind === 'error');
  $('#history').dataset.state = kind;
}

const height = w => (w < 520 ? 240 : 300);

function renderChart() {
  if (h.chart) {
    h.chart.destroy();
    h.chart = null;
  }
  const box = $('#history-chart');
  box.replaceChildren();
  const v = h.view;
  const show = !h.loading && !!v && v.lines.length > 0;
  $('#history-figure').hidden = !show;
  if (!show) return;
  $('#history-caption').textContent = t(v.vendor ? 'historyCaptionVendor' : 'historyCaption', {
    gpu: gpuName(h.gpu), billing: billingText(h.billing), cur: v.currency, vendor: vendorName(v.vendor),
    n: v.lines.length, total: v.lines.length + v.rest.length,
  });
  $('#history-th-price').textContent = t('historyThPrice', { cur: v.currency });
  const notes = [];
  if (v.fx.length) {
    notes.push(t('historyFx', { cur: v.currency, rates: v.fx.map(f => '1 ' + f.from + ' = ' + f.rate + ' ' + v.currency).join(', '),
      date: v.fx[0].asOf || '—' }));
  }
  if (v.others.length) {
    notes.push(t('historyOtherCurrency', { n: v.others.reduce((a, [, n]) => a + n, 0), list: v.others.map(([c]) => c).join(', '), cur: v.currency }));
  }
  const fxNote = $('#history-fx');
  fxNote.hidden = notes.length === 0;
  fxNote.textContent = notes.join(' ');
  box.setAttribute('aria-label', $('#history-caption').textContent + ': ' + v.lines.map(g => g.label + ' ' + unitPrice(g.last)).join('; '));
  if (!window.uPlot) return;
  const width = Math.max(260, Math.floor(box.clientWidth || $('#history-figure').clientWidth));
  h.width = width;
  const max = Math.max(...v.lines.flatMap(g => g.values.filter(x => x != null)));
  const fold = folded(v.xs, v.period);
  h.chart = new window.uPlot({
    width,
    height: height(width),
    padding: [10, 16, 0, 2],
    legend: { show: false },
    tzDate: ts => window.uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
    cursor: { drag: { x: true, y: false, setScale: true }, focus: { prox: 20 }, points: { size: 7 } },
    focus: { alpha: 0.25 },
    scales: {
      x: v.xs.length > 1 ? { time: false } : { time: false, range: () => [fold.pos[0] - DAY_S, fold.pos[0] + DAY_S] },
      y: { range: () => [0, max > 0 ? max * 1.08 : 1] },
    },
    axes: [
      { font: FONT, stroke: '#4b5563', space: 70, grid: { stroke: '#eef0f3', width: 1 }, ticks: { stroke: '#d1d5db', width: 1, size: 4 },
        values: (u, splits, ai, space, incr) => splits.map(s => shortDay(fold.time(s), incr < DAY_S)) },
      { font: FONT, stroke: '#4b5563', size: 56, space: 36, grid: { stroke: '#e5e7eb', width: 1 }, ticks: { stroke: '#d1d5db', width: 1, size: 4 },
        values: (u, splits) => splits.map(x => money(x)) },
    ],
    series: [{}].concat(v.lines.map((g, i) => ({
      label: g.label, stroke: COLORS[i % COLORS.length], width: 2, dash: g.current ? undefined : DASH, spanGaps: false,
      // a lone price is a dot even where the line is too dense for uPlot to draw its points
      points: { size: 8, fill: COLORS[i % COLORS.length], stroke: COLORS[i % COLORS.length],
        filter: (u, si, shown) => (shown || !g.lone.length ? null : g.lone) },
    }))),
    hooks: {
      draw: [u => markGaps(u, fold.gaps)],
      setCursor: [u => {
        const i = u.cursor.idx == null ? null : u.cursor.idx;
        if (i !== h.cursor) {
          h.cursor = i;
          renderLegend();
        }
      }],
    },
  }, [fold.pos, ...v.lines.map(g => g.data)], box);
}

/** Where the folded stretches without data sit, as fractions of the canvas, once drawn (what the browser test looks at). */
function markGaps(u, gaps) {
  u.root.parentElement.dataset.gaps = JSON.stringify(gaps.map(([a, b]) => [a, b].map(x => u.valToPos(x, 'x', true) / u.ctx.canvas.width)));
}

/**
 * The time axis folded to the data: a stretch with no snapshot longer than two sampling periods
 * takes two periods' width (a gap, drawn as one), not its months, so the axis spans the data.
 * pos: each x's place on the folded axis; time: a place back to its time (for the labels); gaps: the folded stretches.
 */
function folded(xs, period) {
  const most = 2 * Math.max(period || DAY_S, 1);
  const pos = [xs[0]];
  const gaps = [];
  for (let i = 1; i < xs.length; i++) {
    const d = xs[i] - xs[i - 1];
    pos.push(pos[i - 1] + Math.min(d, most));
    if (d > most) gaps.push([pos[i - 1], pos[i]]);
  }
  const time = p => {
    if (pos.length < 2 || p <= pos[0]) return xs[0] + (p - pos[0]);
    for (let i = 1; i < pos.length; i++) {
      if (p <= pos[i]) return xs[i - 1] + (p - pos[i - 1]) * (xs[i] - xs[i - 1]) / Math.max(pos[i] - pos[i - 1], 1);
    }
    return xs[xs.length - 1] + (p - pos[pos.length - 1]);
  };
  return { pos, time, gaps };
}

function offerText(src, oneVendor) {
  if (!src) return '';
  const parts = oneVendor ? [] : [src.offer];
  if (src.region && !oneVendor) parts.push(src.region);
  if (src.n > 1) parts.push(t('historyGpus', { n: src.n }) + ': ' + unitPrice(src.price) + ' / ' + unitText(src.unit));
  else if (src.unit !== 'hour' || oneVendor) parts.push(unitPrice(src.price) + ' / ' + unitText(src.unit));
  return parts.join(' · ');
}

function renderLegend() {
  const v = h.view;
  const body = $('#history-legend tbody');
  const more = $('#history-more');
  if (!v || !v.lines.length) {
    body.replaceChildren();
    more.hidden = true;
    return;
  }
  const i = h.cursor;
  $('#history-legend-caption').textContent = i == null ? t('historyLegendLatest') : t('historyLegendAt', { date: isoDay(v.xs[i]) });
  body.replaceChildren(...v.lines.map((g, k) => {
    const idx = i == null ? g.lastIdx : i;
    const value = g.values[idx];
    const lone = i == null && g.lone.includes(g.lastIdx);
    return el('tr', { 'data-line': k, 'data-vendor': g.vendor, 'data-points': g.points, 'data-lone': lone ? '1' : null,
      'data-color': COLORS[k % COLORS.length], 'data-value': value == null ? null : String(value) },
    el('th', { scope: 'row', class: 'vendor' }, el('span', { class: 'swatch' + (g.current ? '' : ' dashed') + (g.points === 1 ? ' dot' : ''),
      style: '--c:' + COLORS[k % COLORS.length], 'aria-hidden': 'true' }), ' ', g.label),
    el('td', { class: 'num price' }, value == null ? '—' : unitPrice(value)),
    el('td', { class: 'offer' }, offerText(g.src[idx], !!v.vendor),
      lone ? el('span', { class: 'muted' }, ' · ' + t('historyOnePoint', { date: isoDay(v.xs[g.lastIdx]) })) : null));
  }));
  const names = v.rest.map(g => g.label);
  more.hidden = names.length === 0;
  more.textContent = names.length ? t('historyMore', { n: names.length, names: names.slice(0, 15).join(', ') + (names.length > 15 ? ', …' : '') }) : '';
}

// --- what changed: the newest two snapshots of one origin, fetched preferred

export async function loadChanges() {
  let snaps;
  try {
    const list = await api.getJson('/api/snapshots?limit=40');
    snaps = { kind: list.length ? 'ok' : 'none', list };
  } catch (e) {
    snaps = e.status === 503 ? { kind: 'none', list: [] } : { kind: 'error', msg: e.message, list: [] };
  }
  h.snapshots = snaps;
  snaps.list.forEach(m => (m.vendors || []).forEach(v => { if (v.displayName && !h.names.has(v.vendor)) h.names.set(v.vendor, v.displayName); }));
  const fetched = snaps.list.filter(m => origin(m) === 'fetched');
  const imported = snaps.list.filter(m => origin(m) === 'import');
  const pick = fetched.length >= 2 ? fetched : imported.length >= 2 ? imported : null;
  h.diff = null;
  if (pick) {
    try {
      // the server compares a snapshot with the previous one of its own origin
      h.diff = { kind: 'ok', origin: origin(pick[0]), body: await api.getJson('/api/snapshots/' + encodeURIComponent(pick[0].id) + '/diff') };
    } catch (e) {
      h.diff = { kind: 'error', msg: e.message };
    }
  }
  renderChanges();
}

/** The rates into the chart's currency the history answer carried (one per converted series), by the currency converted from. */
function ratesToChart() {
  const r = h.result;
  const rates = new Map();
  if (r && r.kind === 'ok') r.series.forEach(s => { if (s.fx && s.currency === h.currency && s.fx.from) rates.set(s.fx.from, num(s.fx.rate)); });
  return rates;
}

const snapDate = meta => (meta ? isoDay(Math.round(Date.parse(meta.takenAt) / 1000)) : '—');

export function renderChanges() {
  const s = h.snapshots;
  const items = [];
  let summary = '';
  const only = $('#changes-this-gpu');
  only.parentElement.hidden = true;
  if (!s) {
    summary = '';
  } else if (s.kind === 'error') {
    summary = t('changesError', { msg: s.msg });
  } else if (!s.list.length) {
    summary = t('changesNoSnapshots');
  } else if (!h.diff) {
    summary = t('changesOnlyOne', { origin: t('origin_' + origin(s.list[0])), date: snapDate(s.list[0]) });
  } else if (h.diff.kind === 'error') {
    summary = t('changesError', { msg: h.diff.msg });
  } else {
    const d = h.diff.body;
    only.parentElement.hidden = false;
    summary = t('changesSummary', { origin: t('origin_' + h.diff.origin), date: snapDate(d.snapshot), against: snapDate(d.against),
      changed: (d.changed || []).length, added: (d.added || []).length, removed: (d.removed || []).length });
    const list = (d.changed || []).filter(c => !only.checked || c.gpu === h.gpu)
      .slice().sort((a, b) => (b.percent == null ? -1 : Math.abs(b.percent)) - (a.percent == null ? -1 : Math.abs(a.percent))).slice(0, 10);
    const rates = ratesToChart();
    for (const c of list) {
      // in the chart's currency when the history answer carried the rate (the percentages are the same in any currency)
      const rate = c.currency === h.currency ? 1 : rates.get(c.currency);
      const [after, before, cur] = rate == null ? [c.after, c.before, c.currency] : [num(c.after) * rate, num(c.before) * rate, h.currency];
      const up = c.percent > 0;
      const down = c.percent < 0;
      const arrow = c.percent == null ? '≠' : up ? '▲' : down ? '▼' : '=';
      const move = c.percent == null ? t('changesTerms') : pct(c.percent);
      items.push(el('li', { 'data-vendor': c.vendor, class: up ? 'up' : down ? 'down' : null },
        el('span', { class: 'chg' }, el('span', { 'aria-hidden': 'true' }, arrow), ' ', move), ' ',
        el('strong', null, vendorName(c.vendor)), ' ',
        [only.checked ? null : gpuName(c.gpu), c.offer, c.region || null, billingText(c.billing)].filter(Boolean).join(' · '),
        ': ', unitPrice(after) + ' ' + cur + ' / ' + unitText(c.unit), ' ',
        el('span', { class: 'muted' }, '(' + t('changesWas', { before: unitPrice(before) }) + ')')));
    }
  }
  $('#changes-summary').textContent = summary;
  $('#changes-list').replaceChildren(...items);
  $('#changes-list').hidden = items.length === 0;
}
