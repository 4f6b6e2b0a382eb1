// Vendor data freshness (GET /api/vendors, every 30 s), each vendor's refused rows (GET /api/vendors/{id}, on opening)
// and the admin's quote-sheet upload.
import { state } from './state.js';
import { el, $ } from './dom.js';
import { t, vendorName } from './i18n.js';
import { age, time, dateTime } from './format.js';
import { badge } from './ranking.js';
import * as api from './api.js';

export async function loadVendors(then) {
  try {
    state.vendors = await api.getJson('/api/vendors');
    state.vendorsAt = new Date();
    state.vendorsError = null;
  } catch (e) {
    state.vendorsError = e.message;
  }
  renderVendors();
  if (then) then();
}

export function renderVendors() {
  const note = $('#vendors-updated');
  note.textContent = state.vendorsError ? t('vendorsError', { msg: state.vendorsError })
    : state.vendorsAt ? t('vendorsUpdated', { time: time(state.vendorsAt) }) : '';
  note.classList.toggle('error-text', !!state.vendorsError);
  const rows = [];
  for (const v of state.vendors || []) {
    rows.push(el('tr', { 'data-vendor': v.vendor, 'data-freshness': v.freshness, class: v.lastError ? 'has-error' : null },
      el('th', { scope: 'row', class: 'vendor', title: v.vendor }, vendorName(v.vendor, v.name)),
      el('td', null, badge(v.freshness), ' ', el('span', { class: 'age', title: v.lastSuccess ? dateTime(v.lastSuccess) : null },
        v.lastSuccess ? t('lastGood', { age: age(v.ageSeconds, t) }) : t('neverFetched'))),
      el('td', { class: 'num' }, v.quotes == null ? '—' : String(v.quotes))));
    if (v.lastError) {
      rows.push(el('tr', { class: 'vendor-error', 'data-error-for': v.vendor },
        el('td', { colspan: 3, class: 'last-error' }, state.lang === 'en'
          ? t('lastError', { time: dateTime(v.lastErrorAt), msg: v.lastError })
          // the source's or its parser's own words, quoted as said (marked English for readers and screen readers)
          : [t('lastErrorCited', { time: dateTime(v.lastErrorAt) }), ' ', el('q', { lang: 'en', class: 'cited' }, v.lastError)])));
    }
    const refused = (v.rejected || 0) + (v.skipped || 0);
    if (refused > 0) {
      rows.push(el('tr', { class: 'vendor-refused', 'data-refused-for': v.vendor },
        el('td', { colspan: 3 }, refusedRows(v.vendor, refused))));
    }
  }
  $('#vendors tbody').replaceChildren(...rows);
  $('#qs-template').href = '/api/quote-sheets/template?lang=' + state.lang;
}

/** "N rows refused: why", opening on GET /api/vendors/{id}: the rows per reason, then the first rows with where and why. */
function refusedRows(vendor, n) {
  const body = el('div', { class: 'refused-body' });
  const details = el('details', { class: 'refused' }, el('summary', null, t('refusedRows', { n })), body);
  details.addEventListener('toggle', async () => {
    if (!details.open || body.dataset.loaded) return;
    body.replaceChildren(t('refusedLoading'));
    try {
      const r = (await api.getJson('/api/vendors/' + encodeURIComponent(vendor))).refused;
      body.dataset.loaded = 'true';
      body.replaceChildren(
        el('p', { class: 'help' }, t('refusedByReason')),
        el('ul', { class: 'refused-reasons' }, r.byReason.map(k => el('li', { lang: 'en' }, el('span', { class: 'num' }, String(k.rows)), ' ', k.reason))),
        el('p', { class: 'help' }, t('refusedFirst', { n: r.rows.length })),
        el('ol', { class: 'refused-rows' }, r.rows.map(x => el('li', { lang: 'en' }, x.at ? el('code', null, x.at) : null, x.at ? ': ' : '', x.reason))));
    } catch (e) {
      body.replaceChildren(t('vendorsError', { msg: e.message }));
    }
  });
  return details;
}

/** POST /api/admin/quote-sheets with the file, the vendor id and the token. */
export async function uploadQuoteSheet(e) {
  e.preventDefault();
  const status = $('#qs-status');
  const list = $('#qs-errors');
  const file = $('#qs-file').files[0];
  const form = new FormData();
  form.append('vendor', $('#qs-vendor').value.trim());
  if (file) form.append('sheet', file, file.name);
  status.textContent = t('qsUploading');
  list.replaceChildren();
  try {
    const r = await fetch(api.withLang('/api/admin/quote-sheets'), {
      method: 'POST', body: form, headers: { Authorization: 'Bearer ' + $('#qs-token').value, Accept: 'application/json' },
    });
    const body = await r.json().catch(() => ({}));
    if (r.ok) {
      status.textContent = t('qsDone', { offers: body.offers, vendor: body.vendor });
      // what the import asks though it read the sheet (a card name two cards answer to), in the page's language (?lang=)
      list.replaceChildren(...(body.warnings || []).map(w => el('li', { class: 'qs-warning' }, w)));
      setTimeout(loadVendors, 1000);
    } else if (r.status === 400 && body.fields) {
      status.textContent = t('qsBad');
      list.replaceChildren(...body.fields.map(f => el('li', null, f.message || f.field + ': ' + f.reason)));
    } else {
      status.textContent = t('qsFailed', { msg: body.error || r.status });
    }
  } catch (err) {
    status.textContent = t('qsFailed', { msg: err.message });
  }
}
