// Numbers, money and dates in the page's language. Money: grouped with two decimals; in Chinese
// a CNY amount carries ¥, elsewhere the ISO code is shown beside it (the page's columns say which).
import { state } from './state.js';

export const locale = () => (state.lang === 'zh' ? 'zh-CN' : 'en-US');

export const num = s => (s == null || s === '' ? NaN : Number(s));

export function money(s) {
  const n = num(s);
  if (!Number.isFinite(n)) return '—';
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
}

/** An amount with its currency: ¥1,234.00 for CNY in Chinese, 1,234.00 USD otherwise. */
export function moneyCur(s, cur) {
  if (!Number.isFinite(num(s))) return '—';
  if (state.lang === 'zh' && cur === 'CNY') return '¥' + money(s);
  return money(s) + ' ' + (cur || '');
}

/** A unit price: at least 2 decimals, at most 4. */
export function unitPrice(s) {
  const n = num(s);
  if (!Number.isFinite(n)) return '—';
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(n);
}

/** A bill line's figure exactly as the server sends it (quantity x unit price = per month), grouped: every decimal kept. */
export function exact(s, minDecimals = 0) {
  const n = num(s);
  if (!Number.isFinite(n)) return '—';
  const decimals = String(s).includes('.') ? String(s).split('.')[1].length : 0;
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: Math.min(minDecimals, 20), maximumFractionDigits: Math.min(Math.max(decimals, minDecimals), 20) }).format(n);
}

export function compact(n) {
  return new Intl.NumberFormat(locale(), { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

export function pct(p) {
  return new Intl.NumberFormat(locale(), { signDisplay: 'exceptZero', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p) + ' %';
}

export function time(d) {
  return d ? d.toLocaleTimeString(locale(), { hour12: false }) : '';
}

/** A time in ISO form, 2026-12-02 09:38, in the reader's time zone: 12/02/2026 reads as two different days. */
export function dateTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (isNaN(d)) return iso;
  const two = n => String(n).padStart(2, '0');
  return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + ' ' + two(d.getHours()) + ':' + two(d.getMinutes());
}

/** A UTC date, 2026-05-31 style (with the time when not midnight): how snapshots are dated. */
export function isoDay(sec) {
  const s = new Date(sec * 1000).toISOString();
  return s.slice(11, 16) === '00:00' ? s.slice(0, 10) : s.slice(0, 10) + ' ' + s.slice(11, 16) + ' UTC';
}

export function shortDay(sec, withTime) {
  const o = { timeZone: 'UTC', month: 'short', day: 'numeric' };
  if (withTime) Object.assign(o, { hour: '2-digit', minute: '2-digit', hour12: false });
  return new Date(sec * 1000).toLocaleString(locale(), o);
}

export function age(seconds, t) {
  if (seconds == null) return t('never');
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return t('ageS', { n: s });
  if (s < 90 * 60) return t('ageM', { n: Math.round(s / 60) });
  if (s < 36 * 3600) return t('ageH', { n: Math.round(s / 3600) });
  return t('ageD', { n: Math.round(s / 86400) });
}

export function shorten(s, max) {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}
