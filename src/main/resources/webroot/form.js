// The scenario form: every field ScenarioReader reads, with its unit, the guide's default and a
// one-line help; workloads added and removed; a 400's field list shown on the fields it names;
// the JSON kept as an advanced view. The form edits state.scenario in place and calls onChange.
import { state } from './state.js';
import { el, $, $$ } from './dom.js';
import { t } from './i18n.js';

const TOP = [
  { p: 'name', k: 'f_name', type: 'text' },
  { p: 'currency', k: 'f_currency', type: 'select', options: ['CNY', 'USD', 'EUR', 'HKD', 'JPY', 'GBP', 'SGD'], def: 'USD' },
  { p: 'horizonMonths', k: 'f_horizonMonths', def: 12, min: 1, max: 120, step: 1 },
  { p: 'headroom', k: 'f_headroom', def: 0.3, min: 0, max: 10, step: 0.05 },
];
const DATA = [
  { p: 'storedGb', k: 'f_storedGb', def: 0, min: 0 },
  { p: 'egressGbPerMonth', k: 'f_egressGbPerMonth', def: 0, min: 0 },
  { p: 'compressionRatio', k: 'f_compressionRatio', def: 1, min: 1, step: 0.1 },
  { p: 'loadBalancers', k: 'f_loadBalancers', def: 0, min: 0, step: 1 },
];
const FILTERS = [
  { p: 'regions.exclude', k: 'f_excludeRegions', type: 'list' },
  { p: 'regions.only', k: 'f_onlyRegions', type: 'list' },
  { p: 'vendors.exclude', k: 'f_excludeVendors', type: 'list' },
  { p: 'vendors.only', k: 'f_onlyVendors', type: 'list' },
  { p: 'gpuMakers', k: 'f_gpuMakers', type: 'list' },
  { p: 'minComputeCapability', k: 'f_minComputeCapability', def: 0, min: 0, max: 20, step: 0.1 },
  { p: 'requireComplete', k: 'f_requireComplete', type: 'bool', def: false },
  { p: 'includeReference', k: 'f_includeReference', type: 'bool', def: false },
  { p: 'inStock', k: 'f_inStock', type: 'bool', def: false },
];
const MIGRATION = [
  { p: 'migration.gb', k: 'f_migrationGb', min: 0 },
  { p: 'migration.fromVendor', k: 'f_migrationFrom', type: 'text' },
  { p: 'migration.sourceEgressPerGb', k: 'f_migrationEgress', def: 0, min: 0, step: 0.01 },
  { p: 'migration.bandwidthMbps', k: 'f_migrationMbps', def: 0, min: 0 },
];
const COMMON = [
  { p: 'name', k: 'w_name', type: 'text' },
  { p: 'kind', k: 'w_kind', type: 'select', options: ['inference', 'fine-tune', 'training', 'batch'], label: v => t('kind_' + v), required: true },
  { p: 'gpu', k: 'w_gpu', type: 'gpu' },
];
// A workload that names its model (issue 31) is sized from its architecture and measured speed,
// with its load in tokens; without one, or with sizing "guide", by the guide's N/T fields.
const byModel = w => !!w.model && w.sizing !== 'guide';
const byGuide = w => !byModel(w);
const MODEL_LOAD = { contextTokens: 4096, concurrentSequences: 8, requestsPerSecond: 1, inputTokens: 1000, outputTokens: 500 };
const GUIDE_LOAD = { peakQps: 3, secondsPerRequest: 2, concurrentPerCard: 4 };
const INFERENCE = [
  { p: 'model', k: 'w_model', type: 'model' },
  { p: 'sizing', k: 'w_sizing', type: 'select', options: ['model', 'guide'], def: 'model', when: w => !!w.model },
  { p: 'paramsBillions', k: 'w_paramsBillions', min: 0, step: 0.5, when: w => !w.model },
  { p: 'precision', k: 'w_precision', type: 'select', options: ['fp16', 'bf16', 'fp8', 'fp32', 'int8', 'int4'], def: 'fp16' },
  { p: 'contextTokens', k: 'w_contextTokens', min: 1, step: 1, when: byModel },
  { p: 'concurrentSequences', k: 'w_concurrentSequences', min: 1, step: 1, when: byModel },
  { p: 'requestsPerSecond', k: 'w_requestsPerSecond', min: 0, step: 0.1, when: byModel },
  { p: 'inputTokens', k: 'w_inputTokens', min: 1, step: 1, when: byModel },
  { p: 'outputTokens', k: 'w_outputTokens', min: 1, step: 1, when: byModel },
  { p: 'ttftSeconds', k: 'w_ttftSeconds', def: 0, min: 0, step: 0.1, when: byModel },
  { p: 'tpotSeconds', k: 'w_tpotSeconds', def: 0, min: 0, step: 0.01, when: byModel },
  { p: 'kvCachePrecision', k: 'w_kvCachePrecision', type: 'select', options: ['fp16', 'bf16', 'fp8'], def: 'fp16', when: byModel },
  { p: 'peakQps', k: 'w_peakQps', min: 0, step: 0.5, when: byGuide },
  { p: 'secondsPerRequest', k: 'w_secondsPerRequest', min: 0, step: 0.1, when: byGuide },
  { p: 'concurrentPerCard', k: 'w_concurrentPerCard', min: 1, step: 1, when: byGuide },
  { p: 'hoursPerDay', k: 'w_hoursPerDay', def: 24, min: 0.1, max: 24, step: 1 },
  { p: 'daysPerMonth', k: 'w_daysPerMonth', def: 30.42, min: 1, max: 31 },
  { p: 'latencyTargetSeconds', k: 'w_latencyTargetSeconds', def: 0, min: 0, step: 0.1, when: byGuide },
  { p: 'bound', k: 'w_bound', type: 'select', options: ['memory', 'compute'], label: v => t('bound_' + v), def: 'memory', when: byGuide },
  { p: 'referenceGpu', k: 'w_referenceGpu', type: 'gpu', def: 'rtx-4090', when: byGuide },
  { p: 'vendor', k: 'w_vendor', type: 'text' },
  { p: 'interruptible', k: 'w_interruptible', type: 'bool', def: false },
  { p: 'restartOverheadHours', k: 'w_restartOverheadHours', def: 1.5, min: 0, step: 0.5 },
  { p: 'allowMultiNode', k: 'w_allowMultiNode', type: 'bool', def: false },
];
const JOB = [
  { p: 'paramsBillions', k: 'w_paramsBillions', min: 0, step: 0.5 },
  { p: 'method', k: 'w_method', type: 'select', options: ['lora', 'qlora', 'full'], label: v => t('method_' + v), def: w => (w.kind === 'fine-tune' ? 'lora' : 'full') },
  { p: 'gpuHoursPerMonth', k: 'w_gpuHoursPerMonth', min: 1 },
  { p: 'memoryGB', k: 'w_memoryGB', def: 0, min: 0, only: 'batch' },
  { p: 'cards', k: 'w_cards', def: 0, min: 0, step: 1 },
  { p: 'referenceGpu', k: 'w_referenceGpu', type: 'gpu', def: 'a100-80g-sxm' },
  { p: 'vendor', k: 'w_vendor', type: 'text' },
  { p: 'interruptible', k: 'w_interruptible', type: 'bool', def: w => w.kind === 'batch' },
  { p: 'restartOverheadHours', k: 'w_restartOverheadHours', def: 1.5, min: 0, step: 0.5 },
  { p: 'allowMultiNode', k: 'w_allowMultiNode', type: 'bool', def: false },
];
const NEW_WORKLOAD = {
  inference: { kind: 'inference', paramsBillions: 7, precision: 'fp16', peakQps: 3, secondsPerRequest: 2, concurrentPerCard: 4 },
  'fine-tune': { kind: 'fine-tune', paramsBillions: 7, method: 'lora', gpuHoursPerMonth: 100 },
  training: { kind: 'training', paramsBillions: 7, method: 'full', gpuHoursPerMonth: 200 },
  batch: { kind: 'batch', memoryGB: 24, gpuHoursPerMonth: 50 },
};
const KIND_FIELDS = new Set([...INFERENCE, ...JOB].map(f => f.p));

export function get(o, path) {
  return path.split('.').reduce((x, k) => (x == null ? undefined : x[k]), o);
}

/** Sets a value by path; undefined removes it (the server's default then applies) and empties parents. */
export function set(o, path, v) {
  const keys = path.split('.');
  let x = o;
  for (const k of keys.slice(0, -1)) {
    if (x[k] == null || typeof x[k] !== 'object') x[k] = {};
    x = x[k];
  }
  const last = keys[keys.length - 1];
  if (v === undefined) delete x[last];
  else x[last] = v;
  if (keys.length > 1 && v === undefined && !Object.keys(x).length) set(o, keys.slice(0, -1).join('.'), undefined);
}

export class ScenarioForm {
  /** @param root the form element; onChange(now) after an edit (now: a switch or a removal, else typing) */
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.gpus = [];
    this.models = [];  // GET /api/models: [{id, hf, aliases}], the picker's choices
  }

  render() {
    const s = state.scenario || {};
    const ws = Array.isArray(s.workloads) ? s.workloads : [];
    this.root.replaceChildren(
      this.group('general', TOP.map(f => this.field(s, f, f.p))),
      el('fieldset', { class: 'workloads' }, el('legend', null, t('workloadsTitle')),
        ws.map((w, i) => this.workload(w, i)),
        el('div', { class: 'add-workload' }, Object.keys(NEW_WORKLOAD).map(kind => el('button', {
          type: 'button', class: 'link-button', 'data-add': kind,
          onclick: () => this.add(kind),
        }, t({ inference: 'addInference', 'fine-tune': 'addFineTune', training: 'addTraining', batch: 'addBatch' }[kind]))))),
      this.group('storageTitle', DATA.map(f => this.field(s, f, f.p))),
      this.group('filtersTitle', FILTERS.map(f => this.field(s, f, f.p))),
      this.group('migrationTitle', MIGRATION.map(f => this.field(s, f, f.p)), !s.migration),
      el('datalist', { id: 'gpu-list' }, this.gpus.map(g => el('option', { value: g.id }, g.name))),
      el('datalist', { id: 'model-list' }, this.models.map(m => el('option', { value: m.id }, m.hf))));
    this.showErrors();
  }

  group(title, children, closed) {
    return el('details', { class: 'group', open: !closed || null }, el('summary', null, t(title)), el('div', { class: 'fields' }, children));
  }

  workload(w, i) {
    const fields = [...COMMON, ...(w.kind === 'inference' ? INFERENCE : JOB)
      .filter(f => (!f.only || f.only === w.kind) && (!f.when || f.when(w)))];
    return el('fieldset', { class: 'workload', 'data-workload': i },
      el('legend', null, t('workload', { n: i + 1 }) + ' · ' + t('kind_' + w.kind)),
      el('button', { type: 'button', class: 'link-button remove', 'data-remove': i, onclick: () => this.remove(i) }, t('removeWorkload')),
      el('div', { class: 'fields' }, fields.map(f => this.field(w, f, 'workloads[' + i + '].' + f.p))));
  }

  /** One labelled input: its unit, default, help and the error slot its path names. */
  field(obj, f, path) {
    const id = 'f-' + path.replace(/[^a-zA-Z0-9]+/g, '-');
    const type = f.type || 'number';
    const v = get(obj, f.p);
    const def = typeof f.def === 'function' ? f.def(obj) : f.def;
    const unit = t(f.k + '_u') !== f.k + '_u' ? t(f.k + '_u') : null;
    let input;
    const commit = (value, now) => {
      set(obj, f.p, value);
      if (f.p === 'kind') this.kindChanged(obj);
      if (f.p === 'model' || f.p === 'sizing') this.sizingChanged(obj);
      this.onChange(now || f.p === 'kind' || f.p === 'model' || f.p === 'sizing');
    };
    if (type === 'bool') {
      const checked = v == null ? !!def : !!v;
      input = el('input', { id, type: 'checkbox', 'data-path': path, checked: checked || null,
        onchange: e => commit(e.target.checked === !!def ? undefined : e.target.checked, true) });
      return el('div', { class: 'field check', 'data-field': path },
        el('label', { for: id }, input, ' ', t(f.k)), el('p', { class: 'help' }, t(f.k + '_help')), errorSlot(path));
    }
    if (type === 'select') {
      input = el('select', { id, 'data-path': path, onchange: e => commit(e.target.value === '' ? undefined : e.target.value, true) },
        f.required ? null : el('option', { value: '' }, def != null ? t('defaultIs', { v: f.label ? f.label(def) : def }) : '—'),
        f.options.map(o => el('option', { value: o, selected: o === v || null }, f.label ? f.label(o) : o)));
    } else {
      const list = type === 'list';
      const shown = list ? (Array.isArray(v) ? v.join(', ') : '') : v == null ? '' : String(v);
      input = el('input', {
        id, 'data-path': path, value: shown, autocomplete: 'off',
        type: type === 'number' ? 'number' : 'text', inputmode: type === 'number' ? 'decimal' : null,
        min: f.min, max: f.max, step: f.step || 'any', list: type === 'gpu' ? 'gpu-list' : type === 'model' ? 'model-list' : null,
        placeholder: def != null ? String(def) : null,
        // a model name is taken when picked or left, not at each key: it changes which fields the workload has
        [type === 'model' ? 'onchange' : 'oninput']: e => commit(parse(type, e.target.value), type === 'model'),
      });
    }
    return el('div', { class: 'field', 'data-field': path },
      el('label', { for: id }, t(f.k), unit ? el('span', { class: 'unit' }, ' (' + unit + ')') : null),
      input,
      el('p', { class: 'help' }, t(f.k + '_help'), def != null && type !== 'select' ? el('span', { class: 'default' }, ' · ' + t('defaultIs', { v: def })) : null),
      errorSlot(path));
  }

  kindChanged(w) {
    for (const k of Object.keys(w)) if (KIND_FIELDS.has(k) && !(k in NEW_WORKLOAD[w.kind])) delete w[k];
    Object.assign(w, { ...NEW_WORKLOAD[w.kind], ...w });
    this.render();
  }

  /** A model named or cleared, or its sizing switched: the load fields of the other way go, this way's come with defaults. */
  sizingChanged(w) {
    const [keep, drop] = byModel(w) ? [MODEL_LOAD, GUIDE_LOAD] : [GUIDE_LOAD, MODEL_LOAD];
    for (const f of INFERENCE) if (f.when && !f.when(w)) delete w[f.p];
    for (const k of Object.keys(drop)) delete w[k];
    for (const [k, v] of Object.entries(keep)) if (w[k] == null) w[k] = v;
    if (!w.model && w.paramsBillions == null) w.paramsBillions = NEW_WORKLOAD.inference.paramsBillions;
    this.render();
  }

  add(kind) {
    const s = state.scenario;
    s.workloads = Array.isArray(s.workloads) ? s.workloads : [];
    s.workloads.push({ name: kind + '-' + (s.workloads.length + 1), ...NEW_WORKLOAD[kind] });
    this.render();
    this.onChange(true);
  }

  remove(i) {
    state.scenario.workloads.splice(i, 1);
    this.render();
    this.onChange(true);
  }

  /** The 400's fields on the inputs they name; the rest (and all, for the list) in #field-errors. */
  showErrors() {
    const errors = state.errors;
    $$('.field-error', this.root).forEach(n => { n.textContent = ''; n.hidden = true; });
    $$('[aria-invalid]', this.root).forEach(n => n.removeAttribute('aria-invalid'));
    for (const e of errors) {
      const slot = this.root.querySelector('.field-error[data-field="' + CSS.escape(e.field) + '"]')
        || this.root.querySelector('.field-error[data-field="' + CSS.escape(e.field.replace(/\[\d+\]$/, '')) + '"]');
      if (!slot) continue;
      slot.textContent = e.reason;
      slot.hidden = false;
      const input = slot.parentElement.querySelector('[data-path]');
      if (input) input.setAttribute('aria-invalid', 'true');
    }
    const box = $('#field-errors');
    $('#field-error-list').replaceChildren(...errors.map(e => el('li', { 'data-field': e.field },
      el('a', { href: '#' + 'f-' + e.field.replace(/[^a-zA-Z0-9]+/g, '-') }, e.field), ' ', e.reason)));
    box.hidden = errors.length === 0;
  }
}

function errorSlot(path) {
  return el('p', { class: 'field-error', 'data-field': path, role: 'alert', hidden: true });
}

function parse(type, text) {
  const s = text.trim();
  if (s === '') return undefined;
  if (type === 'number') {
    const n = Number(s);
    return Number.isFinite(n) ? n : s;  // the server names what is wrong with it
  }
  if (type === 'list') {
    const l = s.split(',').map(x => x.trim()).filter(Boolean);
    return l.length ? l : undefined;
  }
  return s;
}

/** The advanced view: the scenario as JSON, applied on demand. */
export function jsonText() {
  return JSON.stringify(state.scenario, null, 2);
}

export function parseJson(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: t('jsonError', { msg: e.message }) };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: t('jsonNotObject') };
  return { value: v };
}
