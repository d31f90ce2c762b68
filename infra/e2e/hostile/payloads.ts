// Hostile payload generators: whole bodies, single field values, path ids and query strings. Each one says what
// a correct service must answer: `refuse` (a 4xx with `{ error }`), `any` (2xx or 4xx, never 5xx), or a status.

export type Expect = 'refuse' | 'any' | number;

/** What a field holds, so a generator knows whether a value must be refused. */
export type FieldKind =
  'text' | 'html' | 'email' | 'password' | 'role' | 'number' | 'id' | 'bool' | 'mixedId' | 'object';

export interface FieldSpec {
  kind: FieldKind;
  required?: boolean;
  /** Documented fallback: a value that is not a number becomes the default (svc-sms reminder_delay). */
  lenient?: boolean;
}

/** Strings that a page later shows: the page must render them as text (checked in Chromium by hostile-browser). */
export const XSS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(document.cookie)</script>',
  '"><svg onload=alert(1)>',
  "javascript:alert('x')//",
];

const HUGE_STRING = 'A'.repeat(200 * 1024);

/** How hard an endpoint is hit: `full` for the creates and public calls, `light` for the rest. */
export type Depth = 'full' | 'light';

/** Non-primitive values that no scalar field may take: `$`-operators, objects, arrays. Sent to every field. */
const STRUCTURAL: { label: string; value: unknown; full?: boolean }[] = [
  { label: '{$gt:""}', value: { $gt: '' } },
  { label: '{$ne:null}', value: { $ne: null } },
  { label: '{}', value: {}, full: true },
  { label: '["a"]', value: ['a'] },
  { label: '{__proto__}', value: JSON.parse('{"__proto__":{"polluted":"yes"}}'), full: true },
  // Objects whose toString / valueOf are not functions: schema casting that calls them threw a TypeError (a 500).
  { label: '{toString:1}', value: { toString: 1 } },
  { label: '{valueOf:1}', value: { valueOf: 1 } },
  { label: '{toString,valueOf:null}', value: { toString: null, valueOf: null }, full: true },
];

interface Scalar {
  label: string;
  value: unknown;
  /** A required field must refuse it. */
  blank?: boolean;
  /** Only at depth `full`. */
  full?: boolean;
}

/** Wrong types a lenient service may coerce, and blanks: sent to every field. */
const COMMON: Scalar[] = [
  { label: 'true', value: true, full: true },
  { label: 'null', value: null, blank: true },
];

/** Text that pages show: numbers, blanks, a 200 KB string, odd characters, markup that must stay text. */
const FOR_TEXT: Scalar[] = [
  { label: 'number', value: 12345 },
  { label: '""', value: '', blank: true, full: true },
  { label: '"   "', value: '   ', blank: true },
  { label: '200KB string', value: HUGE_STRING },
  { label: 'control chars', value: 'a\u0000b\u202e\u200bc\r\n\t', full: true },
  { label: 'lone surrogate', value: 'x\ud800y', full: true },
  { label: 'xss1', value: XSS[0] },
  { label: 'xss2', value: XSS[1], full: true },
];

/** Secrets and other text never shown. */
const FOR_SECRET: Scalar[] = [
  { label: 'number', value: 12345 },
  { label: '""', value: '', blank: true },
  { label: '200KB string', value: HUGE_STRING },
];

/** Numbers, ids and booleans: strings and out-of-range numbers. */
const FOR_NUMBER: Scalar[] = [
  { label: '"30"', value: '30' },
  { label: '""', value: '', blank: true, full: true },
  { label: '-1', value: -1 },
  { label: '1.5', value: 1.5, full: true },
  { label: '1e308', value: 1e308 },
];

export interface FieldValue {
  label: string;
  value: unknown;
  expect: Expect;
}

const SHOWN_KINDS: FieldKind[] = ['text', 'html', 'email', 'mixedId'];
const SECRET_KINDS: FieldKind[] = ['password', 'role'];

/** The hostile values for one field (including its absence, `undefined`). */
export function fieldValues(spec: FieldSpec, depth: Depth): FieldValue[] {
  const out: FieldValue[] = [];
  const keep = (v: { full?: boolean }) => depth === 'full' || !v.full;
  // An object field takes objects; a lenient number falls back to its default for anything not a number.
  const structuralRefused = spec.kind !== 'object' && !spec.lenient;
  for (const s of STRUCTURAL.filter(keep))
    out.push({ label: s.label, value: s.value, expect: structuralRefused ? 'refuse' : 'any' });
  const byKind = SHOWN_KINDS.includes(spec.kind)
    ? FOR_TEXT
    : SECRET_KINDS.includes(spec.kind)
      ? FOR_SECRET
      : spec.kind === 'object'
        ? []
        : FOR_NUMBER;
  for (const s of [...COMMON, ...byKind].filter(keep)) {
    // A required field that is null, blank or whitespace must be refused (HTML bodies are not trimmed).
    const blankRefused = spec.required && s.blank && !(spec.kind === 'html' && s.label === '"   "');
    out.push({ label: s.label, value: s.value, expect: blankRefused ? 'refuse' : 'any' });
  }
  out.push({ label: 'missing', value: undefined, expect: spec.required && spec.kind !== 'object' ? 'refuse' : 'any' });
  return out;
}

/** Sets `path` (dotted for nested objects) of a copy of `base`; `undefined` deletes the key. */
export function withField(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const keys = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) {
    if (!target[k] || typeof target[k] !== 'object') target[k] = {};
    target = target[k] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

export interface BodyVariant {
  label: string;
  body: string | Buffer;
  expect: Expect;
  contentType?: string;
  chunked?: boolean;
  /** Also sent to endpoints that ignore their body. */
  forBodyless?: boolean;
}

const ONE_MB = 1024 * 1024;

/** JSON text of `base` with extra raw members spliced in (prototype keys must stay literal JSON keys). */
function spliced(base: Record<string, unknown>, raw: string): string {
  const text = JSON.stringify(base);
  return text === '{}' ? `{${raw}}` : `{${raw},${text.slice(1)}`;
}

/** Whole-body variants around a valid `base`: malformed JSON, bodies that are not objects, pollution, size. */
export function bodyVariants(base: Record<string, unknown>, depth: Depth): BodyVariant[] {
  const text = JSON.stringify(base);
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const manyKeys = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
  const all: (BodyVariant & { full?: boolean })[] = [
    { label: 'malformed: {', body: '{', expect: 'refuse', forBodyless: true },
    { label: 'malformed: trailing comma', body: text.replace(/}$/, ',}'), expect: 'refuse', full: true },
    { label: 'malformed: single quotes', body: "{'name':'x'}", expect: 'refuse', full: true },
    { label: 'malformed: garbage after', body: `${text}xyz`, expect: 'refuse', full: true },
    {
      label: 'malformed: invalid UTF-8',
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x3a, 0x31, 0x7d]),
      expect: 'refuse',
      full: true,
    },
    {
      label: 'malformed: form-encoded',
      body: 'name=x&role=admin',
      expect: 'refuse',
      contentType: 'application/x-www-form-urlencoded',
      full: true,
    },
    { label: 'JSON null', body: 'null', expect: 'refuse', full: true },
    { label: 'JSON array', body: '[]', expect: 'refuse' },
    { label: 'JSON array of the body', body: `[${text}]`, expect: 'refuse', full: true },
    { label: 'JSON string', body: '"hello"', expect: 'refuse', full: true },
    { label: 'JSON number', body: '42', expect: 'refuse', full: true },
    { label: 'empty body', body: '', expect: 'refuse' },
    {
      label: '__proto__ member',
      body: spliced(base, '"__proto__":{"polluted":"yes","role":"admin","isAdmin":true}'),
      expect: 'any',
      forBodyless: true,
    },
    {
      label: 'constructor.prototype member',
      body: spliced(base, '"constructor":{"prototype":{"polluted":"yes"}}'),
      expect: 'any',
      full: true,
    },
    {
      label: '$-operator members',
      body: spliced(base, '"$where":"1","$set":{"role":"admin"},"$gt":""'),
      expect: 'any',
      full: true,
    },
    { label: 'deeply nested member', body: spliced(base, `"nest":${deep}`), expect: 'any', full: true },
    { label: '20,000 extra keys', body: JSON.stringify({ ...manyKeys, ...base }), expect: 'any', full: true },
    {
      label: '900 KB padding member',
      body: JSON.stringify({ ...base, pad: 'p'.repeat(900 * 1024) }),
      expect: 'any',
      full: true,
    },
    {
      label: '> 1 MB body',
      body: JSON.stringify({ ...base, pad: 'p'.repeat(ONE_MB + 10) }),
      expect: 413,
      forBodyless: true,
    },
    {
      label: '> 1 MB body, chunked',
      body: JSON.stringify({ ...base, pad: 'p'.repeat(ONE_MB + 10) }),
      expect: 413,
      chunked: true,
      forBodyless: true,
    },
  ];
  return all.filter((v) => depth === 'full' || !v.full);
}

/** Path ids that are not ids, and one that is an id of nothing. */
export const BAD_IDS: { label: string; id: string; expect: Expect; full?: boolean }[] = [
  { label: 'abc', id: 'abc', expect: 'refuse' },
  { label: '-1', id: '-1', expect: 'refuse' },
  { label: '0', id: '0', expect: 'refuse' },
  { label: '1e99', id: '1e99', expect: 'refuse' },
  { label: 'ObjectId', id: '507f1f77bcf86cd799439011', expect: 'refuse' },
  { label: 'unknown', id: '999999999', expect: 404 },
  { label: '__proto__', id: '__proto__', expect: 'refuse' },
  { label: '1.5', id: '1.5', expect: 'refuse', full: true },
  { label: '2^53+1', id: '9007199254740993', expect: 'refuse', full: true },
  { label: '%24ne', id: '%24ne', expect: 'refuse', full: true },
  { label: 'constructor', id: 'constructor', expect: 'refuse', full: true },
  { label: '1%00', id: '1%00', expect: 'refuse', full: true },
];

/** Query strings for list and lookup GETs: operators, pollution, junk paging and sorting. Never a 5xx. */
export const HOSTILE_QUERIES: { query: string; full?: boolean }[] = [
  { query: 'status[$ne]=x' },
  { query: 'status[]=pending&status[]=sent', full: true },
  { query: 'page=-1', full: true },
  { query: 'page=1e99', full: true },
  { query: 'page=1&page=2', full: true },
  { query: 'pageSize=100000000', full: true },
  { query: 'sort=__proto__', full: true },
  { query: 'sort[$gt]=', full: true },
  { query: 'integration_id[$ne]=1', full: true },
  { query: 'integration_id=1e99', full: true },
  { query: 'date_range[$ne]=x', full: true },
  { query: 'email[$ne]=null', full: true },
  { query: '__proto__[polluted]=yes&constructor[prototype][polluted]=yes' },
  { query: 'token[$ne]=x', full: true },
  { query: `q=${'A'.repeat(6000)}` },
];
