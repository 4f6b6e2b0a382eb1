// The service's REST API; every call names the page's language (?lang=, which REST reads
// before Accept-Language), so server texts come back in it.
import { state } from './state.js';

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || String(status));
    this.status = status;
    this.fields = (body && body.fields) || [];
  }
}

export function withLang(url) {
  return url + (url.includes('?') ? '&' : '?') + 'lang=' + state.lang;
}

async function problem(r) {
  try {
    const j = await r.json();
    return j && typeof j === 'object' ? j : { error: String(j) };
  } catch (e) {
    return { error: r.status + ' ' + r.statusText };
  }
}

async function call(method, url, body, accept = 'application/json') {
  const headers = { Accept: accept, 'Accept-Language': state.lang };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(withLang(url), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new ApiError(r.status, await problem(r));
  return r;
}

export const getJson = async url => (await call('GET', url)).json();
export const postJson = async (url, body) => (await call('POST', url, body)).json();
export const rank = scenario => postJson('/api/rank', scenario);
export const register = scenario => postJson('/api/scenarios', scenario);
/** The ranking as a file of the type asked; a server that answers another type (one without that export) fails with 406. */
export async function rankAs(scenario, accept) {
  const r = await call('POST', '/api/rank', scenario, accept);
  const type = (r.headers.get('Content-Type') || '').split(';')[0].trim();
  if (type !== accept) throw new ApiError(406, { error: 'the service answered ' + (type || 'no type') + ', not ' + accept });
  return r.blob();
}

export function forget(id) {
  fetch('/api/scenarios/' + encodeURIComponent(id), { method: 'DELETE', keepalive: true }).catch(() => {});
}

/** Saves a blob under a name through a temporary link. */
export function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
