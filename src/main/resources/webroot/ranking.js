// The ranking table: per plan, per workload what is rented (card, count, billing mode, region),
// the monthly and horizon totals, complete / gaps, dated and undated badges; the bill on demand; mixed
// plan, reference and the vendors not ranked below it. The complete plans come first and #1, the
// winner, is the cheapest of them; the incomplete ones follow under their own heading, each cheaper
// one with the quote that would let it beat #1 (its winsAt.services).
import { state } from './state.js';
import { el, $ } from './dom.js';
import { t, known, workloadName, vendorName } from './i18n.js';
import { money, moneyCur, exact, num, dateTime } from './format.js';

const FRESHNESS_ICON = { fresh: '●', stale: '◐', expired: '○', unavailable: '✕' };
const COLS = 7;

export function badge(freshness) {
  const f = freshness || 'unavailable';
  return el('span', { class: 'badge ' + f, 'data-freshness': f }, el('span', { 'aria-hidden': 'true' }, FRESHNESS_ICON[f] || '•'), ' ', t(f));
}

export const billingText = b => known('billing_', b);
export const unitText = u => known('unit_', u);

/** Renders the table, the notes under it, and keeps open bills and ticked vendors. */
export function renderRanking(onCompare) {
  const r = state.ranking;
  const cur = r ? r.currency : '';
  $('#th-monthly').textContent = r ? t('thMonthlyCur', { cur }) : t('thMonthly');
  $('#th-horizon').textContent = r ? t('thHorizonN', { n: r.horizonMonths, cur }) : t('thHorizon');
  const table = $('#ranking');
  table.dataset.scenario = state.scenarioId || '';
  const tbody = $('#ranking tbody');
  const summary = $('#scenario-summary');
  summary.hidden = !r;
  if (!r) {
    tbody.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: COLS }, t('noRanking'))));
    renderNotes();
    return;
  }
  summary.textContent = t('summary', { name: r.scenario || '—', count: r.plans.length, quotes: dateTime(r.quotesAt) });
  if (!r.plans.length) {
    tbody.replaceChildren(el('tr', { class: 'empty' }, el('td', { colspan: COLS }, t('noPlans'))));
    renderNotes();
    return;
  }
  const rows = [];
  const anyComplete = r.plans.some(p => p.complete !== false);
  r.plans.forEach((p, i) => {
    const rank = i + 1;
    if (p.complete === false && (i === 0 || r.plans[i - 1].complete !== false)) {
      rows.push(el('tr', { class: 'group incomplete-group' },
        el('td', { colspan: COLS }, t(anyComplete ? 'incompleteGroup' : 'noCompleteGroup'))));
    }
    const name = vendorName(p.vendor, p.displayName);
    const open = state.expanded.has(p.vendor);
    const detailId = 'bill-' + p.vendor.replace(/[^a-zA-Z0-9_-]/g, '_');
    const before = state.prevRanks.get(p.vendor);
    const moved = before && before !== rank;
    const quoted = p.winsAt && p.winsAt.services && p.winsAt.services.length ? p.winsAt : null;
    rows.push(el('tr', { 'data-vendor': p.vendor, 'data-rank': rank, class: rank === 1 && p.complete !== false ? 'best' : null },
      el('td', { class: 'num rank' }, String(rank),
        moved ? el('span', { class: 'move ' + (before > rank ? 'up' : 'down') }, (before > rank ? '▲' : '▼') + Math.abs(before - rank)) : null),
      el('th', { scope: 'row', class: 'vendor' }, el('span', { class: 'name' }, name), ' ', badges(p),
        quoted ? el('p', { class: 'wins-if-quoted', 'data-vendor': p.vendor }, quoted.text) : null,
        rank === 1 && p.complete !== false ? cheaperBelow(p, r) : null),
      el('td', { class: 'rent' }, el('ul', null, (p.placements || []).map(rentItem))),
      el('td', { class: 'num monthly', 'data-value': p.monthlyTotal }, money(p.monthlyTotal)),
      el('td', { class: 'num horizon', 'data-value': p.horizonTotal }, money(p.horizonTotal)),
      el('td', { class: 'pick' }, el('input', {
        type: 'checkbox', class: 'compare-pick', 'data-vendor': p.vendor, 'aria-label': t('compareOf', { vendor: name }),
        checked: state.compare.includes(p.vendor) || null,
        disabled: !state.compare.includes(p.vendor) && state.compare.length >= 3 || null,
        onchange: e => onCompare(p.vendor, e.target.checked),
      })),
      el('td', { class: 'details' }, el('button', {
        type: 'button', class: 'toggle', 'aria-expanded': String(open), 'aria-controls': detailId, 'data-vendor': p.vendor,
        'aria-label': t('billOf', { vendor: name }),
        onclick: e => toggle(e.currentTarget, p.vendor),
      }, el('span', { class: 'chev', 'aria-hidden': 'true' }, '▸'), ' ', t('showBill')))));
    rows.push(el('tr', { class: 'detail', id: detailId, 'data-detail-for': p.vendor, hidden: !open || null },
      el('td', { colspan: COLS }, planDetail(p, r, rank))));
  });
  tbody.replaceChildren(...rows);
  renderNotes();
}

/**
 * The winner's word on a cheaper answer shown further down the page (the mixed plan, the guide's
 * reference when it is not ranked), so #1 is never read as the cheapest answer on the screen when it is not.
 */
function cheaperBelow(p, r) {
  const cheaper = [];
  if (r.mixed && num(r.mixed.monthlyTotal) < num(p.monthlyTotal)) {
    cheaper.push(t('cheaperMixed', { monthly: moneyCur(r.mixed.monthlyTotal, r.currency) }));
  }
  if (r.reference && num(r.reference.monthlyTotal) < num(p.monthlyTotal)) {
    cheaper.push(t('cheaperReference', { monthly: moneyCur(r.reference.monthlyTotal, r.currency) }));
  }
  return cheaper.length ? el('p', { class: 'cheaper-below', 'data-vendor': p.vendor }, cheaper.join(t('listSep'))) : null;
}

function toggle(button, vendor) {
  const open = button.getAttribute('aria-expanded') !== 'true';
  if (open) state.expanded.add(vendor);
  else state.expanded.delete(vendor);
  button.setAttribute('aria-expanded', String(open));
  const detail = document.getElementById(button.getAttribute('aria-controls'));
  if (detail) detail.hidden = !open;
}

function badges(p) {
  const gaps = p.gaps || [];
  return [
    p.complete === false
      ? el('span', { class: 'flag gap-flag', 'data-gaps': gaps.length, title: gaps.map(g => g.item + ': ' + g.reason).join('\n') }, t('incomplete', { n: gaps.length }))
      : el('span', { class: 'flag complete-flag' }, t('complete')),
    p.dated ? el('span', { class: 'flag dated-flag', 'data-date': (p.priceDate || '').slice(0, 10),
      title: t('datedTitle', { date: (p.priceDate || '').slice(0, 10) }) }, t('dated', { date: (p.priceDate || '').slice(0, 10) })) : null,
    p.undated ? el('span', { class: 'flag undated-flag', title: t('undatedTitle') }, t('undated')) : null,
    p.warnings && p.warnings.length ? el('span', { class: 'flag warn-flag', title: p.warnings.join('\n') }, t('warnCount', { n: p.warnings.length })) : null,
  ];
}

/** "NVIDIA GeForce RTX 4090 × 2 · 包月 · cn" for one workload. */
function rentItem(pl) {
  return el('li', { 'data-workload': pl.workload, 'data-gpu': pl.gpu, 'data-cards': pl.cards, 'data-billing': pl.billing },
    el('span', { class: 'workload' }, workloadName(pl.workload)), ': ',
    t('rentLine', { gpu: pl.gpuName || pl.gpu, n: pl.cards, billing: billingText(pl.billing), region: pl.region || '—' }),
    pl.stock && pl.stock.state === 'available' ? [' ', el('span', { class: 'flag stock-flag', 'data-stock': pl.stock.count ?? '',
      title: pl.stock.said || null }, pl.stock.count != null ? t('inStockN', { n: pl.stock.count }) : t('inStock'))] : null);
}

/** An offer left out as not rentable now where it would have been picked: "sold out, skipped", with the source's words. */
function skippedItem(k, currency) {
  return el('li', { class: 'skipped', 'data-vendor': k.vendor, 'data-offer': k.offer, 'data-lead': String(k.wouldLead) },
    el('span', { class: 'flag soldout-flag', title: (k.stock && k.stock.said) || null }, t('soldOutSkipped')), ' ',
    t('skippedLine', { vendor: k.vendor, offer: k.offer, workload: k.workload, monthly: moneyCur(k.perMonth, currency),
      said: (k.stock && k.stock.said) || '' }),
    k.planWith ? ' ' + t(k.wouldLead ? 'skippedLead' : 'skippedPlan', { vendor: k.vendor, monthly: moneyCur(k.planWith, currency) }) : '');
}

/** A bill; a mixed plan's lines carry the vendor each is bought from, shown in a first column. */
export function billTable(bill, currency) {
  const lines = bill.lines || [];
  const mixed = lines.some(l => l.vendor);
  const head = el('tr', null, (mixed ? ['billVendor'] : []).concat(['billItem', 'billSpec', 'billQuantity', 'billUnitPrice', 'billPerMonth', 'billNote'])
    .map(k => el('th', { scope: 'col', class: ['billQuantity', 'billUnitPrice', 'billPerMonth'].includes(k) ? 'num' : null }, t(k))));
  const body = lines.map(l => el('tr', { title: l.source || null, class: l.pricedBy && l.pricedBy !== 'vendor' ? l.pricedBy : null },
    mixed ? el('td', { class: 'bought-from' }, l.vendor || '') : null,
    el('td', { class: 'item' }, l.item, l.pricedBy && l.pricedBy !== 'vendor'
      ? el('span', { class: 'flag gap-flag', 'data-priced-by': l.pricedBy, title: t(l.pricedBy + 'Title') }, ' ' + t(l.pricedBy)) : null),
    el('td', { class: 'spec' }, l.spec),
    el('td', { class: 'num quantity' }, exact(l.quantity) + ' ' + unitText(l.unit)),
    el('td', { class: 'num unit-price' }, exact(l.unitPrice, 2) + ' / ' + unitText(l.unit)),
    el('td', { class: 'num' }, money(l.perMonth)),
    el('td', { class: 'note' }, l.note || '')));
  const foot = [el('tr', null, el('th', { scope: 'row', colspan: mixed ? 5 : 4 }, t('billTotal', { cur: bill.currency || currency })),
    el('td', { class: 'num total' }, money(bill.monthlyTotal)), el('td'))];
  if (num(bill.upfront) > 0) {
    foot.push(el('tr', { class: 'upfront' }, el('th', { scope: 'row', colspan: mixed ? 5 : 4 }, t('billUpfront', { cur: bill.currency || currency })),
      el('td', { class: 'num' }, money(bill.upfront)), el('td', { class: 'note' }, t('billUpfrontNote'))));
  }
  return el('div', { class: 'table-wrap' }, el('table', { class: 'bill' }, el('thead', null, head), el('tbody', null, body), el('tfoot', null, foot)));
}

/** The bill and the words behind it; also what the print stylesheet puts on one page per plan. */
export function planDetail(p, r, rank) {
  const placements = p.placements || [];
  const warnings = [...new Set([...(p.warnings || []), ...placements.flatMap(pl => pl.warnings || [])])];
  const fx = [...new Set([...((p.bill && p.bill.lines) || []).map(l => l.fx), ...placements.map(pl => pl.fx)].filter(Boolean))];
  return el('div', { class: 'plan-detail' },
    el('h3', { class: 'print-only' }, (rank ? '#' + rank + ' ' : '') + (p.displayName || p.vendor || ''), ' · ',
      moneyCur(p.monthlyTotal, r.currency), ' / ', unitText('month')),
    billTable(p.bill || {}, r.currency),
    p.gaps && p.gaps.length ? [el('h4', null, t('gapsTitle')), el('ul', { class: 'gaps' }, p.gaps.map(g => el('li', null, el('strong', null, g.item), ': ', g.reason)))] : null,
    placements.length ? [el('h4', null, t('placements')), el('ul', { class: 'placements' }, placements.map(pl => el('li', null,
      el('strong', null, workloadName(pl.workload)), ' · ', rentItem(pl).lastChild.textContent, ' · ', moneyCur(pl.perMonth, r.currency),
      pl.explanation ? el('p', { class: 'explanation' }, pl.explanation) : null)))] : null,
    warnings.length ? [el('h4', null, t('warnings')), el('ul', { class: 'warnings' }, warnings.map(w => el('li', null, w)))] : null,
    fx.length ? [el('h4', null, t('fxNotes')), el('ul', { class: 'fx' }, fx.map(f => el('li', null, f)))] : null,
    p.note ? el('p', { class: 'vendor-note' }, el('strong', null, t('vendorNote') + ': '), p.note) : null,
    p.winsAt && p.winsAt.text ? el('p', { class: 'wins-at', 'data-discount': p.winsAt.discount || '' }, el('strong', null, t('winsAt') + ': '), p.winsAt.text) : null);
}

function renderNotes() {
  const r = state.ranking;
  const mixed = $('#mixed');
  const m = r && r.mixed;
  mixed.hidden = !m;
  mixed.replaceChildren(...(m ? [el('details', { 'data-vendor-mixed': m.homeVendor },
    el('summary', null, el('strong', null, t('mixedTitle')), ' — ',
      t('mixedText', { home: m.homeVendor, monthly: moneyCur(m.monthlyTotal, r.currency), saved: money(m.savingsVsBest) })),
    planDetail({ bill: m.bill, placements: m.placements || [], warnings: m.warnings || [], note: m.note }, r))] : []));
  const list = (r && r.unavailable) || [];
  const notes = [];
  if (r && r.reference) {
    notes.push(el('p', { class: 'reference-note', 'data-reference': r.reference.vendor },
      t('referenceText', { name: vendorName(r.reference.vendor, r.reference.displayName), monthly: moneyCur(r.reference.monthlyTotal, r.currency) }),
      r.referenceNote ? ' ' + r.referenceNote : ''));
  }
  if (r && !r.mixed && r.mixedNote) notes.push(el('p', { class: 'mixed-note' }, t('noMixed') + ': ' + r.mixedNote));
  const excluded = r && r.excluded ? Object.entries(r.excluded) : [];
  if (excluded.length) {
    notes.push(el('p', { class: 'excluded-note' }, t('excludedText', { n: excluded.reduce((a, [, n]) => a + n, 0) }),
      ' (' + excluded.map(([k, n]) => k + ' ' + n).join(', ') + ')'));
  }
  const skipped = (r && r.skipped) || [];
  if (skipped.length) {
    notes.push(el('div', { class: 'skipped-note' }, el('p', null, t('skippedTitle')),
      el('ul', null, skipped.map(k => skippedItem(k, r.currency)))));
  }
  if (r && r.apis) notes.push(...r.apis.map(apiPanel));
  const un = $('#unavailable');
  un.hidden = list.length === 0 && notes.length === 0;
  un.replaceChildren(...notes, ...(list.length ? [el('details', null, el('summary', null, t('unavailableTitle') + ' (' + list.length + ')'),
    el('ul', null, list.map(u => el('li', { 'data-vendor': u.vendor }, el('strong', null, u.vendor), ': ', u.reason))))] : []));
}

/** Rent or call an API: each API selling the workload's model, its month for the workload's tokens, and the verdict. */
function apiPanel(a) {
  const head = ['apiProvider', 'apiModel', 'apiInput', 'apiOutput', 'apiMonthly', 'apiSource'].map(k => el('th', null, t(k)));
  const rows = a.options.map(o => el('tr', { 'data-provider': o.provider, class: o.carries ? '' : 'api-cannot' },
    el('td', null, o.provider), el('td', null, o.model), el('td', { class: 'num' }, exact(o.inputPerMillion, 2)),
    el('td', { class: 'num' }, exact(o.outputPerMillion, 2)), el('td', { class: 'num' }, money(o.monthly)),
    el('td', null, o.source + (o.carries ? '' : ' — ' + o.limit))));
  return el('details', { class: 'api-compare', 'data-workload': a.workload },
    el('summary', null, el('strong', null, t('apiTitle', { workload: a.workload, model: a.model })), ' — ', a.verdict),
    el('table', { class: 'api-table' }, el('thead', null, el('tr', null, head)), el('tbody', null, rows)));
}
