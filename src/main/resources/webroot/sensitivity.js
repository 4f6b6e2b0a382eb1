// What if it grows: sliders for peak QPS, hours a day and the horizon. Moving one edits the
// scenario (the page re-ranks it live, debounced); under each, a strip of re-rankings across
// its range (POST /api/rank, two at a time) names the winner at each value and marks the
// 临界点, where the winner changes, as the guide's break-even table (4.2) does.
import { state } from './state.js';
import { el, $ } from './dom.js';
import { t } from './i18n.js';
import { money } from './format.js';
import * as api from './api.js';

const inference = s => (Array.isArray(s.workloads) ? s.workloads : []).filter(w => w && w.kind === 'inference');

export const PARAMS = [
  {
    id: 'qps', label: 'sensQps', min: 1, max: 60, step: 1, grid: [1, 2, 5, 10, 20, 40, 60],
    applies: s => inference(s).length > 0,
    get: s => inference(s)[0].peakQps,
    // the first inference workload takes the value; the others keep their share of it
    set: (s, v) => {
      const ws = inference(s);
      const base = Number(ws[0].peakQps) || 1;
      ws.forEach((w, i) => { w.peakQps = i === 0 ? v : Math.max(0.1, Math.round((Number(w.peakQps) || base) * v / base * 10) / 10); });
    },
  },
  {
    id: 'hours', label: 'sensHours', min: 1, max: 24, step: 1, grid: [2, 4, 8, 10, 12, 16, 24],
    applies: s => inference(s).length > 0,
    get: s => inference(s)[0].hoursPerDay == null ? 24 : inference(s)[0].hoursPerDay,
    set: (s, v) => inference(s).forEach(w => { w.hoursPerDay = v; }),
  },
  {
    id: 'horizon', label: 'sensHorizon', min: 1, max: 36, step: 1, grid: [1, 3, 6, 12, 24, 36],
    applies: () => true,
    get: s => (s.horizonMonths == null ? 12 : s.horizonMonths),
    set: (s, v) => { s.horizonMonths = v; },
  },
];

let seq = 0;

/** The sliders, set from the scenario; onChange() after a move. */
export function renderSliders(onChange) {
  const s = state.scenario || {};
  $('#sensitivity-sliders').replaceChildren(...PARAMS.filter(p => p.applies(s)).map(p => {
    const v = Number(p.get(s));
    const out = el('output', { id: 's-' + p.id + '-value', for: 's-' + p.id }, String(v));
    return el('div', { class: 'slider', 'data-param': p.id },
      el('label', { for: 's-' + p.id }, t(p.label), ': ', out),
      el('input', {
        type: 'range', id: 's-' + p.id, min: p.min, max: Math.max(p.max, v), step: p.step, value: v,
        oninput: e => {
          const x = Number(e.target.value);
          p.set(state.scenario, x);
          out.textContent = String(x);
          onChange();
        },
      }),
      el('ol', { class: 'sens-grid', id: 's-' + p.id + '-grid', 'data-scenario': state.sensitivityFor }, gridCells(p, v)));
  }));
}

/** Only the grids (a slider being dragged is left alone). */
export function renderGrids() {
  const s = state.scenario || {};
  for (const p of PARAMS) {
    const grid = document.getElementById('s-' + p.id + '-grid');
    if (!grid || !p.applies(s)) continue;
    grid.dataset.scenario = state.sensitivityFor;
    grid.replaceChildren(...gridCells(p, Number(p.get(s))));
  }
}

function gridCells(p, current) {
  const cells = state.sensitivity[p.id] || [];
  return cells.map((c, i) => {
    const flip = i > 0 && c.vendor !== cells[i - 1].vendor;
    return el('li', { class: [flip ? 'flip' : '', c.value === current ? 'current' : ''].join(' ').trim() || null,
      'data-value': c.value, 'data-vendor': c.vendor || '', title: flip ? t('sensFlip') : null },
    el('span', { class: 'v' }, (flip ? '▲ ' : '') + c.value),
    el('span', { class: 'w' }, c.name || t('sensNone')),
    el('span', { class: 'm' }, c.monthly ? money(c.monthly) : ''));
  });
}

/** Re-ranks the scenario (live as {@code id}) at each grid value of each slider; a newer call makes an older one stop. */
export async function computeGrids(scenario, id, onDone) {
  const mine = ++seq;
  const jobs = [];
  for (const p of PARAMS) {
    if (!p.applies(scenario)) continue;
    for (const value of p.grid) jobs.push({ p, value });
  }
  const results = {};
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && mine === seq) {
      const { p, value } = jobs[next++];
      const s = JSON.parse(JSON.stringify(scenario));
      p.set(s, value);
      let cell = { value };
      try {
        const r = await api.rank(s);
        const w = r.plans[0];
        if (w) cell = { value, vendor: w.vendor, name: w.displayName || w.vendor, monthly: w.monthlyTotal };
      } catch (e) { /* an unrankable value shows as "no winner" */ }
      (results[p.id] = results[p.id] || []).push(cell);
    }
  };
  await Promise.all([worker(), worker()]);
  if (mine !== seq) return;
  for (const id of Object.keys(results)) results[id].sort((a, b) => a.value - b.value);
  state.sensitivity = results;
  state.sensitivityFor = id;
  onDone();
}
