// The public API as the table calls it: JSON in and out, the seat's token only in a header, a refusal
// as a Problem (problem+json's title and detail).

export class Problem extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.title = body?.title || `HTTP ${status}`;
    this.detail = body?.detail || '';
    this.code = body?.code;
  }
}

// How far this browser's clock is from the service's, from the answers' Date headers (whole seconds,
// so a gap under two seconds is taken for none): a turn's deadline is the service's time.
let skew = 0;
export const serverNow = () => Date.now() + (Math.abs(skew) < 2000 ? 0 : skew);

/**
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string, body?: unknown }} [options] the seat's token (sent in a header) and a JSON body
 */
export async function call(method, path, { token, body } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new Problem(0, { title: 'The service cannot be reached', detail: 'Check the connection; the page keeps trying and carries on by itself once the service answers.' });
  }
  const date = Date.parse(res.headers.get('Date') ?? '');
  if (Number.isFinite(date)) skew = date + 500 - Date.now();
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Problem(res.status, data);
  return data;
}

/** The token was refused: not this match's, or no longer valid. */
export const refusesToken = (error) => error instanceof Problem && (error.status === 401 || error.status === 403);
