// The cost breakdown (uPlot for the scale and axes, the stacked segments drawn in its draw hook)
// and the compare view. A bill line's part is read from its unit and place, not its words (which
// come in the page's language): the first lines, one per placement, are GPUs; then GB-month is
// object storage, GB public bandwidth, month a load balancer, "GB once" data migration.
import { state } from './state.js';
import { el, $ } from './dom.js';
import { t } from './i18n.js';
import { money, compact, num, shorten } from './format.js';

export const PARTS = ['gpu', 'storage', 'egress', 'lb', 'migration', 'other'];
const COLORS = { gpu: '#2563eb', storage: '#0f766e', egress: '#ea580c', lb: '#9333ea', migration: '#ca8a04', other: '#6b7280' };
const UNIT_PART = { 'GB-month': 'storage', GB: 'egress', month: 'lb', 'GB once': 'migration' };
/** Bars drawn; the rest are named under the chart. */
export const TOP_N = 12;
/** Past this many times the median bar the scale stops and longer bars are cut off, labelled. */
const CLIP_AT_MEDIAN = 3;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif';

export function partOf(line, i, placements) {
  if (i < placements && ['card-hour', 'card-month'].includes(line.unit)) return 'gpu';
  return UNIT_PART[line.unit] || 'other';
}

/** A plan's monthly cost per part. */
export function parts(plan) {
  const out = Object.fromEntries(PARTS.map(p => [p, 0]));
  const n = (plan.placements || []).length;
  ((plan.bill && plan.bill.lines) || []).forEach((l, i) => { out[partOf(l, i, n)] += num(l.perMonth) || 0; });
  return out;
}

let chart = null;
let width = 0;

export function renderBreakdown() {
  const r = state.ranking;
  const box = $('#breakdown');
  if (chart) {
    chart.destroy();
    chart = null;
  }
  box.replaceChildren();
  const plans = r ? r.plans.slice(0, TOP_N) : [];
  $('#breakdown-figure').hidden = plans.length === 0;
  $('#breakdown-title').textContent = t('breakdownTitle', { cur: r ? r.currency : '' });
  $('#breakdown-legend').replaceChildren(...PARTS.filter(p => p !== 'other').map(p => el('li', { 'data-part': p },
    el('span', { class: 'swatch', style: '--c:' + COLORS[p], 'aria-hidden': 'true' }), ' ', t('part_' + p))));
  const rest = r ? r.plans.slice(TOP_N) : [];
  const more = $('#breakdown-more');
  more.hidden = rest.length === 0;
  more.textContent = rest.length ? t('breakdownMore', { n: rest.length, first: money(rest[0].monthlyTotal),
    names: rest.map(p => (p.displayName || p.vendor) + ' ' + compact(num(p.monthlyTotal))).join(', ') }) : '';
  if (!plans.length || !window.uPlot) return;
  const totals = plans.map(p => num(p.monthlyTotal));
  const sorted = totals.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const max = Math.max(...totals);
  const cap = Math.min(max, median * CLIP_AT_MEDIAN);
  const clipped = totals.some(v => v > cap);
  const note = $('#breakdown-clipped');
  note.hidden = !clipped;
  note.textContent = clipped ? t('breakdownClipped', { max: money(cap) }) : '';
  const split = plans.map(parts);
  width = Math.max(260, Math.floor(box.clientWidth || box.parentElement.clientWidth));
  const room = Math.round(width * 0.35) - 12;
  const names = plans.map(p => fit(p.displayName || p.vendor, room));
  const n = plans.length;
  const xs = plans.map((_, i) => i);
  box.setAttribute('aria-label', $('#breakdown-title').textContent + ': ' + plans.map((p, i) => names[i] + ' ' + money(p.monthlyTotal)
    + ' (' + PARTS.filter(k => split[i][k] > 0).map(k => t('part_' + k) + ' ' + money(split[i][k])).join(', ') + ')').join('; '));
  box.dataset.clipped = clipped ? plans.filter((p, i) => totals[i] > cap).map(p => p.vendor).join(' ') : '';
  const labelWidth = Math.min(Math.round(width * 0.35), 12 + Math.max(...names.map(s => measure(s))));
  const opts = {
    width,
    height: 40 + n * 28,
    padding: [6, 28, 0, 0],
    legend: { show: false },
    cursor: { show: false },
    select: { show: false },
    scales: { x: { time: false, ori: 1, dir: -1, range: [-0.5, n - 0.5] }, y: { ori: 0, dir: 1, range: () => [0, cap * 1.18] } },
    axes: [
      { scale: 'x', side: 3, size: labelWidth, gap: 6, font: FONT, stroke: '#1f2937', grid: { show: false }, ticks: { show: false },
        splits: () => xs, values: (u, s) => s.map(i => (Number.isInteger(i) && names[i] != null ? names[i] : '')) },
      { scale: 'y', side: 2, font: FONT, stroke: '#4b5563', size: 34, space: 64, grid: { stroke: '#e5e7eb', width: 1 },
        ticks: { stroke: '#d1d5db', width: 1, size: 4 }, values: (u, s) => s.map(v => compact(v)) },
    ],
    series: [{}, { label: 'total', paths: () => null, points: { show: false } }],
    hooks: { draw: [u => drawBars(u, split, totals, cap)] },
  };
  chart = new window.uPlot(opts, [xs, totals.map(v => Math.min(v, cap))], box);
}

function drawBars(u, split, totals, cap) {
  const ctx = u.ctx;
  const dpr = window.devicePixelRatio || 1;
  const h = Math.min(20, (u.bbox.height / totals.length) * 0.7 / dpr) * dpr;
  ctx.save();
  ctx.font = FONT.replace('12px', (12 * dpr) + 'px');
  ctx.textBaseline = 'middle';
  totals.forEach((total, i) => {
    const y = u.valToPos(i, 'x', true);
    let from = 0;
    for (const p of PARTS) {
      const v = split[i][p];
      if (!(v > 0) || from >= cap) continue;
      const to = Math.min(from + v, cap);
      const x0 = u.valToPos(from, 'y', true);
      const x1 = u.valToPos(to, 'y', true);
      ctx.fillStyle = COLORS[p];
      ctx.fillRect(x0, y - h / 2, Math.max(1, x1 - x0), h);
      from += v;
    }
    const cut = total > cap;
    const end = u.valToPos(Math.min(total, cap), 'y', true);
    if (cut) {  // a break mark where the bar is cut off
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(end - 10 * dpr, y - h / 2 - 1, 3 * dpr, h + 2);
      ctx.fillRect(end - 5 * dpr, y - h / 2 - 1, 3 * dpr, h + 2);
    }
    ctx.fillStyle = '#111827';
    ctx.textAlign = 'left';
    ctx.fillText((cut ? '▶ ' : '') + money(total), end + 5 * dpr, y);
  });
  ctx.restore();
}

/** The name, shortened with an ellipsis until it fits in px pixels. */
function fit(name, px) {
  let n = Math.min(name.length, 26);
  while (n > 4 && measure(shorten(name, n)) > px) n--;
  return shorten(name, n);
}

let measureCtx = null;
function measure(text) {
  measureCtx = measureCtx || document.createElement('canvas').getContext('2d');
  measureCtx.font = FONT;
  return Math.ceil(measureCtx.measureText(text).width);
}

/** Redraws at a new width (the panel follows the window). */
export function resizeBreakdown() {
  const w = Math.floor($('#breakdown').clientWidth);
  if (state.ranking && Math.abs(w - width) > 8) renderBreakdown();
}

/** 2-3 vendors' bills side by side: one row per line (GPUs per workload, then the data lines), totals, the difference. */
export function renderCompare() {
  const r = state.ranking;
  const box = $('#compare');
  const plans = r ? state.compare.map(v => r.plans.find(p => p.vendor === v)).filter(Boolean) : [];
  $('#compare-hint').hidden = plans.length >= 2;
  if (plans.length < 2) {
    box.replaceChildren();
    return;
  }
  const rows = new Map();  // key -> {label, cells: vendor -> line}
  for (const p of plans) {
    const n = (p.placements || []).length;
    ((p.bill && p.bill.lines) || []).forEach((l, i) => {
      const part = partOf(l, i, n);
      const key = part === 'gpu' ? 'gpu:' + ((p.placements[i] && p.placements[i].workload) || i) : part + ':' + l.item;
      if (!rows.has(key)) rows.set(key, { label: l.item, part, cells: new Map() });
      rows.get(key).cells.set(p.vendor, l);
    });
  }
  const first = plans[0];
  const cell = (l) => (l ? el('td', { class: 'num' }, money(l.perMonth), el('div', { class: 'spec' }, l.spec)) : el('td', { class: 'num muted' }, '—'));
  box.replaceChildren(el('table', { class: 'compare-table' },
    el('caption', null, t('compareTitle') + ' (' + r.currency + ')'),
    el('thead', null, el('tr', null, el('th', { scope: 'col' }, t('compareLine')),
      plans.map(p => el('th', { scope: 'col', class: 'num', 'data-vendor': p.vendor }, p.displayName || p.vendor)))),
    el('tbody', null, [...rows.entries()].map(([key, row]) => el('tr', { 'data-line': key, 'data-part': row.part },
      el('th', { scope: 'row' }, el('span', { class: 'swatch', style: '--c:' + COLORS[row.part], 'aria-hidden': 'true' }), ' ', row.label),
      plans.map(p => cell(row.cells.get(p.vendor)))))),
    el('tfoot', null,
      el('tr', { class: 'total' }, el('th', { scope: 'row' }, t('compareTotal')),
        plans.map(p => el('td', { class: 'num total', 'data-vendor': p.vendor, 'data-value': p.monthlyTotal }, money(p.monthlyTotal)))),
      el('tr', { class: 'horizon' }, el('th', { scope: 'row' }, t('compareHorizon')),
        plans.map(p => el('td', { class: 'num', 'data-value': p.horizonTotal }, money(p.horizonTotal)))),
      el('tr', { class: 'diff' }, el('th', { scope: 'row' }, t('compareDiff')),
        plans.map(p => el('td', { class: 'num' }, p === first ? '—' : (num(p.monthlyTotal) >= num(first.monthlyTotal) ? '+' : '')
          + money(num(p.monthlyTotal) - num(first.monthlyTotal))))))));
}
