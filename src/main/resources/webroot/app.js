// The dashboard's entry: wires the modules together. It opens on an answer: the scenario used
// last (kept in localStorage) or the guide's template with nothing pinned, registered as a live
// scenario and followed over /ws; every edit re-ranks it (debounced).
import { state } from './state.js';
import { el, $, $$, debounce } from './dom.js';
import { t, applyLang, initialLang } from './i18n.js';
import { time, dateTime, moneyCur } from './format.js';
import * as api from './api.js';
import { LiveSocket } from './live.js';
import { ScenarioForm, jsonText, parseJson } from './form.js';
import { renderRanking, planDetail, unitText } from './ranking.js';
import { renderBreakdown, resizeBreakdown, renderCompare } from './charts.js';
import { renderSliders, renderGrids, computeGrids } from './sensitivity.js';
import * as history from './history.js';
import { loadVendors, renderVendors, uploadQuoteSheet } from './vendors.js';

// the guide's template with nothing pinned: the whole market is ranked (a preset that pins cards ranks the few that sell them)
const DEFAULT_PRESET = 'guide-template-open';
const SAVED = 'gpurent.scenario';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PRINT_PLANS = 10;
const VENDORS_EVERY_MS = 30000;

const socket = new LiveSocket({
  onRanking: (id, ranking) => update(ranking, id),
  onError: (id, m) => socketError(m),
  onState: (key, args) => { if (!state.ranking || key === 'reconnecting') setStatus(key, args); },
});
const form = new ScenarioForm($('#form'), now => edited(now));
const rankSoon = debounce(() => rankNow(), 700);
const rankNowish = debounce(() => rankNow(), 150);
const gridsSoon = debounce((s, id) => computeGrids(s, id, renderGrids), 1500);

// --- status

function setStatus(key, args) {
  state.status = { key, args: args || {} };
  renderStatus();
}

function renderStatus() {
  const { key, args } = state.status;
  const name = 'status' + key.charAt(0).toUpperCase() + key.slice(1);
  $('#status').textContent = key === 'live' ? t('statusLive', { time: time(state.updatedAt) }) : t(name, args);
  $('#status').dataset.state = key;
}

// --- the scenario

async function loadPresets() {
  try {
    state.presets = await api.getJson('/api/presets');
  } catch (e) {
    state.presets = [];
    setStatus('error', { msg: e.message });
  }
  fillPresets();
}

function fillPresets() {
  const sel = $('#preset');
  sel.replaceChildren(el('option', { value: '' }, t('presetCustom')), ...state.presets.map(p => {
    const key = 'p_' + p.id.replace(/-/g, '_');
    return el('option', { value: p.id }, t(key) !== key ? t(key) : p.name);
  }));
  sel.value = state.presetId;
}

function savedScenario() {
  try {
    const s = JSON.parse(localStorage.getItem(SAVED) || 'null');
    return s && typeof s === 'object' && s.scenario ? s : null;
  } catch (e) {
    return null;
  }
}

function remember() {
  try { localStorage.setItem(SAVED, JSON.stringify({ preset: state.presetId, scenario: state.scenario })); } catch (e) { /* storage disabled */ }
}

function usePreset(id) {
  const p = state.presets.find(x => x.id === id);
  if (!p) return;
  state.presetId = id;
  state.scenario = JSON.parse(JSON.stringify(p.scenario));
  state.errors = [];
  $('#preset').value = id;
  redrawScenario();
  rankNow();
}

function redrawScenario() {
  form.render();
  renderSliders(slid);
  if ($('#json-view').open) $('#scenario-json').value = jsonText();
}

/** An edit in the form (now: a switch, a removal; else typing, which waits for a pause). */
function edited(now) {
  state.presetId = '';
  $('#preset').value = '';
  renderSliders(slid);
  if ($('#json-view').open) $('#scenario-json').value = jsonText();
  (now ? rankNowish : rankSoon)();
}

/** A slider moved: the form shows the new value; the ranking follows after a pause. */
function slid() {
  state.presetId = '';
  $('#preset').value = '';
  form.render();
  rankSoon();
}

async function rankNow() {
  const s = JSON.parse(JSON.stringify(state.scenario));
  remember();
  if (!state.ranking) setStatus('registering');
  let id;
  try {
    ({ id } = await api.register(s));
  } catch (e) {
    refused(e);
    return;
  }
  state.errors = [];
  form.showErrors();
  const old = state.scenarioId;
  state.scenarioId = id;
  state.registered = s;
  if (old && old !== id) api.forget(old);
  socket.follow(id);
  history.scenarioChanged(s);
  gridsSoon(s, id);
}

/**
 * A socket error about the live scenario. Its text comes in the page's language, so what it means
 * is asked of the REST copy of the same ranking, whose status says it: 404 the service forgot the
 * scenario (a restart: register it again), 503 no quotes yet (wait and ask again).
 */
async function socketError(m) {
  const msg = String(m.error || '');
  const id = state.scenarioId;
  let status = 0;
  if (id) {
    try {
      status = (await fetch(api.withLang('/api/scenarios/' + encodeURIComponent(id) + '/ranking'), { headers: { Accept: 'application/json' } })).status;
    } catch (e) { /* the service is away: the socket's reconnect will tell */ }
  }
  if (id !== state.scenarioId) return;
  if (status === 503) {
    setStatus('waiting');
    setTimeout(() => socket.resubscribe(), 2000);
  } else if (status === 404 && state.registered && !state.reregistering) {
    state.reregistering = true;
    state.scenarioId = null;
    rankNow().finally(() => { state.reregistering = false; });
  } else {
    setStatus('error', { msg });
  }
}

function update(ranking, id) {
  // a rank moves only against the same scenario's previous ranking, never across a preset switch or an edit
  const same = state.ranking && state.rankingOf === id;
  state.prevRanks = new Map((same ? state.ranking.plans : []).map((p, i) => [p.vendor, i + 1]));
  state.rankingOf = id;
  state.ranking = ranking;
  state.updatedAt = new Date();
  state.compare = state.compare.filter(v => ranking.plans.some(p => p.vendor === v));
  setStatus('live');
  renderAll();
}

function renderAll() {
  renderRanking(onCompare);
  renderBreakdown();
  renderCompare();
  renderPrint();
}

function onCompare(vendor, on) {
  state.compare = on ? [...new Set([...state.compare, vendor])].slice(0, 3) : state.compare.filter(v => v !== vendor);
  renderRanking(onCompare);
  renderCompare();
  if (on && state.compare.length >= 2) $('#compare-panel').scrollIntoView({ block: 'nearest' });
}

// --- hand it on: Excel, CSV, print

async function download(accept, ext) {
  const s = JSON.parse(JSON.stringify(state.scenario));
  try {
    const blob = await api.rankAs(s, accept);
    const body = ext === 'csv' ? new Blob(['\ufeff', blob], { type: 'text/csv;charset=utf-8' }) : blob;
    const slug = String(s.name || 'ranking').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'ranking';
    api.save(body, 'gpurent-' + slug + '-' + new Date().toISOString().slice(0, 10) + '.' + ext);
  } catch (e) {
    refused(e);
  }
}

/** A request the service refused: a 400 marks the fields it names on the form, anything else is an error line. */
function refused(e) {
  if (e.status === 400) {
    state.errors = e.fields;
    form.showErrors();
    setStatus('invalid');
  } else {
    setStatus('error', { msg: e.message });
  }
}

/** What the print stylesheet shows: the summary, then one page per plan (the cheapest PRINT_PLANS). */
function renderPrint() {
  const r = state.ranking;
  const box = $('#print-report');
  if (!r) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    el('p', { class: 'print-meta' }, t('printedAt', { time: dateTime(new Date().toISOString()) }), ' · ',
      t('summary', { name: r.scenario || '—', count: r.plans.length, quotes: dateTime(r.quotesAt) })),
    ...r.plans.slice(0, PRINT_PLANS).map((p, i) => el('section', { class: 'print-plan', 'data-vendor': p.vendor },
      planDetail(p, r, i + 1),
      el('p', { class: 'print-totals' }, moneyCur(p.monthlyTotal, r.currency) + ' / ' + unitText('month') + ' · '
        + t('thHorizonN', { n: r.horizonMonths, cur: r.currency }) + ': ' + moneyCur(p.horizonTotal, r.currency)))));
}

// --- language

function switchLang(lang) {
  applyLang(lang);
  socket.setLang(state.lang);
  fillPresets();
  redrawScenario();
  renderStatus();
  renderAll();
  renderVendors();
  history.render();
  history.renderChanges();
  // REST answers (the history's notes, one-off rankings) are in the language asked: ask again
  if (state.registered) gridsSoon(state.registered, state.scenarioId);
}

// --- start

async function init() {
  applyLang(initialLang());
  socket.lang = state.lang;
  $$('.lang button').forEach(b => b.addEventListener('click', () => switchLang(b.dataset.lang)));
  $('#preset').addEventListener('change', e => { if (e.target.value) usePreset(e.target.value); });
  $('#rank').addEventListener('click', () => rankNow());
  $('#download-xlsx').addEventListener('click', () => download(XLSX, 'xlsx'));
  $('#download-csv').addEventListener('click', () => download('text/csv', 'csv'));
  $('#print').addEventListener('click', () => window.print());
  $('#json-view').addEventListener('toggle', e => { if (e.target.open) $('#scenario-json').value = jsonText(); });
  $('#json-apply').addEventListener('click', () => {
    const r = parseJson($('#scenario-json').value);
    $('#json-error').textContent = r.error || '';
    $('#json-error').hidden = !r.error;
    if (r.error) return;
    state.scenario = r.value;
    state.presetId = '';
    $('#preset').value = '';
    redrawScenario();
    rankNow();
  });
  $('#qs-form').addEventListener('submit', uploadQuoteSheet);
  if (window.ResizeObserver) new ResizeObserver(debounce(resizeBreakdown, 150)).observe($('#breakdown'));
  window.addEventListener('pagehide', () => { if (state.scenarioId) api.forget(state.scenarioId); });
  renderAll();
  setStatus('registering');
  const gpus = api.getJson('/api/gpus').catch(() => []);
  const models = api.getJson('/api/models').catch(() => []);
  await loadPresets();
  const saved = savedScenario();
  if (saved) {
    state.scenario = saved.scenario;
    state.presetId = state.presets.some(p => p.id === saved.preset) ? saved.preset : '';
    $('#preset').value = state.presetId;
    redrawScenario();
    rankNow();
  } else {
    usePreset(state.presets.some(p => p.id === DEFAULT_PRESET) ? DEFAULT_PRESET : (state.presets[0] || {}).id);
  }
  form.gpus = await gpus;
  form.models = await models;
  form.render();
  loadVendors(() => history.render());
  setInterval(() => loadVendors(), VENDORS_EVERY_MS);
  history.initHistory();
}

init();
