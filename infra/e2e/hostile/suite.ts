// The generated hostile suite: builds one case per (endpoint × generator), runs them with bounded concurrency,
// and judges each answer (see hostile.e2e.ts for what is asserted).
import { errorMessage, pool, send, type RawRequest, type RawResponse } from './client';
import { endpoints, RAW_CASES, type Endpoint } from './endpoints';
import type { Fixtures } from './fixtures';
import { BAD_IDS, bodyVariants, fieldValues, HOSTILE_QUERIES, withField, type Expect } from './payloads';

// Bounded so that the browser tests sharing the stack still get their share of two CPUs.
export const CONCURRENCY = 8;
// HOSTILE_DEPTH=full sends every generator to every endpoint (about 3,100 requests instead of about 2,000).
// HOSTILE_REPORT=<file> writes every failure, the slowest endpoints and generators, and every answer there.

export interface Case {
  n: number;
  name: string;
  label: string;
  req: RawRequest;
  expect: Expect;
  allow: number[];
  /** A signed-in endpoint's case that carries its session: a 401 means the session was lost. */
  signedIn: boolean;
  /** Removes what an accepted create stored, when the body was huge (lists stay small for the reads). */
  remove?: Endpoint['remove'];
  /** Cases aiming at one fixture record run in order, each compared with the record before it. */
  lane?: { key: string; snapshot: () => Promise<unknown>; shared: boolean; restore?: Endpoint['restore'] };
}

export interface Outcome {
  c: Case;
  res?: RawResponse;
  error?: string;
  ms: number;
  /** Set when a refused case changed its record. */
  changed?: { before: string; after: string };
}

/** Anonymous calls come from many loopback addresses: per-address limits must not answer instead of the rules. */
const spread = (n: number) => `127.0.${1 + ((n >> 8) % 250)}.${1 + (n % 250)}`;
const SIGNED_IN_FROM = '127.0.0.2';

export function buildCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const marker = (n: number) => `${f.tag}-k${n}`;
  const add = (
    ep: Endpoint | null,
    name: string,
    label: string,
    req: Omit<RawRequest, 'from'>,
    expect: Expect,
    lane?: Case['lane'],
  ) => {
    const n = cases.length;
    const anon = ep ? ep.as === 'anon' : !req.headers?.cookie;
    const signedIn = !!ep && ep.as !== 'anon' && /act\.sid=(?!forged)/.test(req.headers?.cookie ?? '');
    cases.push({
      n,
      name,
      label,
      req: { ...req, from: anon ? spread(n) : SIGNED_IN_FROM },
      expect,
      allow: ep?.allow ?? [],
      signedIn,
      remove: ep?.remove,
      lane,
    });
  };
  const cookieOf = (as: string) => (as === 'user' ? f.userCookie : as === 'admin' ? f.adminCookie : undefined);
  const headers = (cookie: string | undefined, contentType = 'application/json') => ({
    'content-type': contentType,
    ...(cookie ? { cookie } : {}),
  });

  for (const [i, ep] of endpoints(f).entries()) {
    const name = `${ep.method} ${ep.path}`;
    const cookie = cookieOf(ep.as);
    const withId = (id: string) => ep.path.replace(':id', id);
    const target = ep.path.includes(':id') ? (ep.id !== undefined ? withId(String(ep.id)) : null) : ep.path;
    const lane = ep.snapshot
      ? { key: `${i} ${name}`, snapshot: ep.snapshot, shared: !!ep.shared, restore: ep.restore }
      : undefined;
    const hasBody = ep.method !== 'GET';
    const baseText = (n: number) => (ep.base ? JSON.stringify(ep.base(marker(n))) : undefined);
    const next = () => cases.length;
    const depth = process.env.HOSTILE_DEPTH === 'full' ? 'full' : (ep.depth ?? 'light');

    // Signed-in endpoints refuse a call without a session, and one with a made-up cookie.
    if (ep.as !== 'anon') {
      const path = target ?? withId('1');
      const body = hasBody ? (baseText(next()) ?? '{}') : undefined;
      add(
        ep,
        name,
        'no session',
        { method: ep.method, path, headers: headers(undefined), body },
        401,
        target ? lane : undefined,
      );
      add(
        ep,
        name,
        'forged session cookie',
        { method: ep.method, path, headers: headers('act.sid=forged; act.sid.sig=forged'), body },
        401,
        target ? lane : undefined,
      );
    }
    if (ep.destructive) {
      // Whatever the body, a signed-in call clears shared data: only what must be refused before the handler.
      for (const v of bodyVariants({}, 'light').filter((v) => v.expect === 413))
        add(
          ep,
          name,
          v.label,
          { method: ep.method, path: ep.path, headers: headers(cookie), body: v.body, chunked: v.chunked },
          413,
        );
      continue;
    }
    if (ep.ids) {
      for (const bad of BAD_IDS.filter((b) => depth === 'full' || !b.full)) {
        const body = hasBody ? baseText(next()) : undefined;
        add(
          ep,
          name,
          `id ${bad.label}`,
          { method: ep.method, path: withId(bad.id), headers: headers(cookie), body },
          ep.expect === 'refuse' ? 'refuse' : bad.expect,
        );
      }
    }
    if (!target) continue;
    if (ep.query) {
      for (const { query } of HOSTILE_QUERIES.filter((q) => depth === 'full' || !q.full))
        add(
          ep,
          name,
          `?${query.slice(0, 40)}`,
          { method: ep.method, path: `${target}?${query}`, headers: headers(cookie) },
          ep.expect ?? 'any',
        );
    }
    if (hasBody && (ep.base || ep.bodyless)) {
      const m0 = marker(next());
      for (const v of bodyVariants(ep.base ? ep.base(m0) : {}, depth)) {
        if (ep.bodyless && !v.forBodyless) continue;
        let expect: Expect = v.expect;
        if (ep.bodyless && typeof expect !== 'number') expect = ep.expect ?? 'any';
        else if (ep.bodyOptional && v.body === '') expect = 'any';
        else if (ep.expect === 'refuse') expect = typeof expect === 'number' ? expect : 'refuse';
        if (ep.refuseOnly && expect === 'any') continue;
        // The variants were built around one marker: each case carries its own.
        const body = typeof v.body === 'string' ? v.body.split(m0).join(marker(next())) : v.body;
        add(
          ep,
          name,
          v.label,
          { method: ep.method, path: target, headers: headers(cookie, v.contentType), body, chunked: v.chunked },
          expect,
          lane,
        );
      }
    }
    if (hasBody && ep.base && ep.fields) {
      for (const [field, spec] of Object.entries(ep.fields)) {
        for (const fv of fieldValues(spec, depth)) {
          const expect: Expect = ep.expect === 'refuse' ? 'refuse' : ep.expect === 'any' ? 'any' : fv.expect;
          if (ep.refuseOnly && expect === 'any') continue;
          const body = JSON.stringify(withField(ep.base(marker(next())), field, fv.value));
          add(
            ep,
            name,
            `${field}=${fv.label}`,
            { method: ep.method, path: target, headers: headers(cookie), body },
            expect,
            lane,
          );
        }
      }
    }
  }
  for (const raw of RAW_CASES) {
    const cookie = cookieOf(raw.as);
    add(
      null,
      `${raw.method} ${raw.path.slice(0, 50)}`,
      raw.label,
      {
        method: raw.method,
        path: raw.path,
        headers: { ...headers(cookie, raw.contentType), ...raw.headers },
        body: raw.body,
      },
      raw.expect,
    );
  }
  return cases;
}

/** What is wrong with one answer, or null. */
export function verdict(o: Outcome): string | null {
  const { c, res } = o;
  if (!res) return `no answer: ${o.error}`;
  const s = res.status;
  if (s >= 500 && !c.allow.includes(s)) return `${s} ${res.text.slice(0, 120)}`;
  if (typeof c.expect === 'number' && s !== c.expect) return `expected ${c.expect}, got ${s} ${res.text.slice(0, 120)}`;
  if (c.expect === 'refuse' && s < 400) return `expected a refusal, got ${s} ${res.text.slice(0, 120)}`;
  if (s >= 400 && !errorMessage(res)) return `${s} without a JSON { error }: ${res.text.slice(0, 120)}`;
  if (s === 401 && c.signedIn && c.expect !== 401)
    return `401 with a valid session (the session was lost): ${res.text.slice(0, 120)}`;
  if (o.changed)
    return `refused with ${s} but its record changed:\n  before ${o.changed.before.slice(0, 300)}\n  after  ${o.changed.after.slice(0, 300)}`;
  return null;
}

const stable = (v: unknown) => JSON.stringify(v);

/**
 * Whether a change of a shared setting (which other test files may save meanwhile) comes from this refused case:
 * a field now holds the value the case sent, or only a timestamp moved (a write that should not have happened).
 */
function changedByCase(c: Case, before: string, after: string): boolean {
  let body: Record<string, unknown>;
  let b: Record<string, unknown>;
  let a: Record<string, unknown>;
  try {
    body = JSON.parse(typeof c.req.body === 'string' ? c.req.body : '') as Record<string, unknown>;
    b = JSON.parse(before) as Record<string, unknown>;
    a = JSON.parse(after) as Record<string, unknown>;
  } catch {
    return true;
  }
  if (!body || typeof body !== 'object' || !a || !b) return true;
  const changed = Object.keys({ ...a, ...b }).filter((k) => stable(a[k]) !== stable(b[k]));
  if (changed.every((k) => /updated_?at/i.test(k))) return true;
  return changed.some((k) => k in body && (stable(a[k]) === stable(body[k]) || String(a[k]) === String(body[k])));
}

export async function run(cases: Case[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(cases.length);
  const attempt = async (c: Case): Promise<Outcome> => {
    const t0 = Date.now();
    try {
      const res = await send(c.req);
      const size = typeof c.req.body === 'string' ? c.req.body.length : 0;
      if (c.remove && size > 100_000 && res.status < 300 && res.json && typeof res.json === 'object') {
        const { method, path, body } = c.remove(res.json as Record<string, unknown>);
        await send({
          method,
          path,
          headers: { 'content-type': 'application/json', cookie: c.req.headers?.cookie ?? '' },
          body: body === undefined ? undefined : JSON.stringify(body),
          from: c.req.from,
        });
      }
      return { c, res, ms: Date.now() - t0 };
    } catch (err) {
      return { c, error: (err as Error).message, ms: Date.now() - t0 };
    }
  };
  const lanes = new Map<string, Case[]>();
  const loose: Case[] = [];
  for (const c of cases) {
    if (c.lane) lanes.set(c.lane.key, [...(lanes.get(c.lane.key) ?? []), c]);
    else loose.push(c);
  }
  const laneTasks = [...lanes.values()].map((laneCases) => async () => {
    const { snapshot, shared, restore } = laneCases[0]!.lane!;
    // An accepted case changed a shared setting: put it back at once, then read it again.
    const putBack = async (os: Outcome[], before: string, after: string) => {
      if (!restore || after === before || !os.some((o) => o.res && o.res.status < 300)) return after;
      await restore(JSON.parse(before) as Record<string, unknown>);
      return stable(await snapshot());
    };
    const blame = (o: Outcome, before: string, after: string) => {
      if (!o.res || o.res.status < 400 || after === before) return;
      if (shared && !changedByCase(o.c, before, after)) return;
      o.changed = { before, after };
    };
    // Cases that must be refused run together between two reads (any success among them is a failure anyway);
    // the others may succeed and change the record, so each runs alone between two reads.
    const refused = laneCases.filter((c) => c.expect === 'refuse' || (typeof c.expect === 'number' && c.expect >= 400));
    const others = laneCases.filter((c) => !refused.includes(c));
    let before = stable(await snapshot());
    const group = await pool(
      refused.map((c) => () => attempt(c)),
      4,
    );
    let after = stable(await snapshot());
    for (const o of group) {
      blame(o, before, after);
      outcomes[o.c.n] = o;
    }
    before = await putBack(group, before, after);
    for (const c of others) {
      const o = await attempt(c);
      after = stable(await snapshot());
      blame(o, before, after);
      outcomes[c.n] = o;
      before = await putBack([o], before, after);
    }
  });
  const looseTasks = loose.map((c) => async () => {
    outcomes[c.n] = await attempt(c);
  });
  // The lanes are long and sequential: started first, they overlap with everything else.
  await pool([...laneTasks, ...looseTasks], CONCURRENCY);
  return outcomes;
}
