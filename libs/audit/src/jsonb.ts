// PostgreSQL's text form of a jsonb value, reproduced exactly, so that the event hashes the database
// computed (es_event_hash: sha256 over jsonb text) can be recomputed offline, with no database.
// jsonb keeps object keys sorted by byte length, then bytewise; it prints ", " between items and
// ": " after keys, and escapes strings like escape_json() in src/backend/utils/adt/json.c.

export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`jsonb cannot hold ${value}`);
      if (!Number.isInteger(value)) throw new Error(`only integers are reproduced exactly, got ${value}`);
      return String(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return quote(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => compareKeys(a, b));
      return `{${entries.map(([k, v]) => `${quote(k)}: ${jsonbText(v)}`).join(', ')}}`;
    }
    default:
      throw new Error(`jsonb cannot hold a ${typeof value}`);
  }
}

const ASCII = /^[\x00-\x7f]*$/;

function compareKeys(a: string, b: string): number {
  // ASCII keys (every key of an event): one byte a character, and bytes compare as the characters do.
  if (ASCII.test(a) && ASCII.test(b)) return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y);
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const NEEDS_ESCAPE = /["\\\x00-\x1f]/;

function quote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const escaped = ESCAPES[ch];
    if (escaped) out += escaped;
    else if (ch < ' ') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
