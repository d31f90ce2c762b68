import type { Context, Next } from 'koa';
import { AUDIT_SUBJECT, type AuditActor, type AuditChange, type AuditRecord, type AuditService } from '@act/contracts/src/audit';
import type { Outbox } from './outbox';
import type { Logger } from './logger';

/** What a handler may add to its audit record (ctx.state.audit): the middleware fills in the rest. */
export interface AuditNote {
  action?: string;
  /** Who, where the request carries no signed-in user (sign-in attempts). */
  actor?: AuditActor;
  target_kind?: string;
  target_id?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Record even though the request failed (a failed sign-in is itself the action). */
  evenOnFailure?: boolean;
  /** Nothing changed (an update whose diff is empty, a probe such as a connection test): no record. */
  skip?: boolean;
}

declare module 'koa' {
  interface DefaultState {
    audit?: AuditNote;
  }
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Field names whose values never reach the log: only that they were set. */
const SECRET = /pass(word)?|secret|token|api[_-]?key|auth|signature|credential/i;
// A Twilio SID (account, messaging service) names a resource; the auth token beside it is the secret.
const MAX_STRING = 500;
const MAX_KEYS = 50;
/** What stands for a secret in a record: whether it was set, set anew, replaced or removed; never its value. */
export const SECRET_MARKS = { set: '[set]', notSet: '[not set]', changed: '[changed]', cleared: '[cleared]' } as const;
const MARK = /^\[(set|not set|changed|cleared)\]$/;

/** A copy safe to keep: secrets replaced by "[set]" / "[cleared]", long texts cut, depth bounded. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  }
  if (depth >= 3) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_KEYS)) {
    // A flag (`has_secret`, `apiKeyConfigured`) says only whether one is set: kept as it is.
    out[k] = SECRET.test(k) && typeof v !== 'boolean' ? (typeof v === 'string' && MARK.test(v) ? v : v === null || v === '' ? '[cleared]' : '[set]') : redact(v, depth + 1);
  }
  return out;
}

/** Fields no change summary shows: bookkeeping every write moves. */
const NOT_STATE = new Set(['_id', '__v', 'updated_at', 'updatedAt']);

export interface AuditDiffOptions {
  /** Only these fields are compared (default: every field of either side). */
  fields?: readonly string[];
  /** More fields to leave out (derived counts, timestamps the write sets). */
  ignore?: readonly string[];
  /**
   * Secrets the call wrote that neither side shows (a sealed key, a password hash): name → whether one was set
   * before and whether one is set after. Sending a secret counts as a change (a rotation), even to the same value.
   */
  secrets?: Record<string, { before: boolean; after: boolean }>;
}

export interface AuditDiff {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || v === false;
/** A JSON-shaped copy: dates as ISO strings, ObjectIds as strings, mongoose documents as plain objects. */
function plain(v: unknown): Record<string, unknown> | null {
  if (v === null || v === undefined) return null;
  const o = JSON.parse(JSON.stringify(v)) as unknown;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
}
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The change summary of one write, computed one way for every feature: the fields whose value differs
 * between the state read before the write and the state after it, each with its value before and after. A secret
 * (by its name: password, secret, token, API key, auth, signature) shows as `[set]` / `[not set]` before and
 * `[set]` / `[changed]` / `[cleared]` after, never its value. A creation (no before) lists the state after, a deletion
 * (no after) the state before. Null when nothing changed: such a call is not a change and leaves no record.
 */
export function auditDiff(beforeState: unknown, afterState: unknown, opts: AuditDiffOptions = {}): AuditDiff | null {
  const b = plain(beforeState);
  const a = plain(afterState);
  const ignore = new Set([...NOT_STATE, ...(opts.ignore ?? [])]);
  const keep = (o: Record<string, unknown>) => {
    const fields = opts.fields ?? Object.keys(o);
    return Object.fromEntries(fields.filter((k) => !ignore.has(k) && o[k] !== undefined).map((k) => [k, o[k]]));
  };
  if (!b && !a) return null;
  if (!b) return { before: null, after: redact(keep(a!)) as Record<string, unknown> };
  if (!a) return { before: redact(keep(b)) as Record<string, unknown>, after: null };
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const keys = opts.fields ?? [...new Set([...Object.keys(b), ...Object.keys(a)])];
  for (const k of keys) {
    if (ignore.has(k) || same(b[k], a[k])) continue;
    if (SECRET.test(k)) {
      before[k] = isEmpty(b[k]) ? SECRET_MARKS.notSet : SECRET_MARKS.set;
      after[k] = isEmpty(a[k]) ? SECRET_MARKS.cleared : isEmpty(b[k]) ? SECRET_MARKS.set : SECRET_MARKS.changed;
    } else {
      before[k] = b[k] ?? null;
      after[k] = a[k] ?? null;
    }
  }
  for (const [k, s] of Object.entries(opts.secrets ?? {})) {
    if (!s.before && !s.after) continue;
    before[k] = s.before ? SECRET_MARKS.set : SECRET_MARKS.notSet;
    after[k] = !s.after ? SECRET_MARKS.cleared : s.before ? SECRET_MARKS.changed : SECRET_MARKS.set;
  }
  if (Object.keys(after).length === 0) return null;
  return { before: redact(before) as Record<string, unknown>, after: redact(after) as Record<string, unknown> };
}

/**
 * For a handler: the audit record of this call holds the change from `before` (read before the write, in the same
 * handler) to `after` (the state the write left); when nothing changed, the call is not recorded.
 */
export function auditChange(ctx: Context, before: unknown, after: unknown, opts: AuditDiffOptions & Omit<AuditNote, 'before' | 'after' | 'skip'> = {}): void {
  const { fields, ignore, secrets, ...note } = opts;
  const diff = auditDiff(before, after, { fields, ignore, secrets });
  ctx.state.audit = diff ? { ...ctx.state.audit, ...note, before: diff.before, after: diff.after } : { ...ctx.state.audit, skip: true };
}

/** For a handler: this call changed nothing (a probe such as a connection test, or a no-op); no record. */
export function auditSkip(ctx: Context): void {
  ctx.state.audit = { ...ctx.state.audit, skip: true };
}

/** `PATCH /api/webhook-integrations/:id` → kind `webhook-integration`, verb `update`. */
export function describeRoute(method: string, route: string): { kind: string | null; action: string } {
  const parts = route.replace(/^\/api\/?/, '').split('/').filter((p) => p && !p.startsWith(':'));
  const kind = parts.length > 0 ? singular(parts[0]!) : null;
  const rest = parts.slice(1).join('.');
  const verb = rest || (method === 'POST' ? 'create' : method === 'DELETE' ? 'delete' : 'update');
  return { kind, action: kind ? `${kind}.${verb}` : verb };
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function asRecord(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (redact(v) as Record<string, unknown>) : null;
}

/**
 * Records every state-changing call of a signed-in staff user that succeeded (and what a handler marks, such as a
 * failed sign-in) as an `audit.recorded` event in the service's outbox, before the answer leaves: the same path
 * as the change's own events. svc-auth gathers them. A call that failed changed nothing and is not recorded; nor is
 * one its handler marked as no change (`auditChange` with an empty diff, `auditSkip` for a probe). A handler that
 * says nothing gets the fields sent as `after` (creations, commands).
 */
export function auditMiddleware({ outbox, service, logger }: { outbox: Outbox; service: AuditService; logger: Logger }) {
  return async function recordAudit(ctx: Context, next: Next) {
    if (!CHANGING.has(ctx.method)) return next();
    let failed: unknown = null;
    try {
      await next();
    } catch (err) {
      failed = err;
    }
    const note = ctx.state.audit;
    if (note?.skip) {
      if (failed !== null) throw failed;
      return;
    }
    const user = ctx.state.identity?.user ?? null;
    const ok = failed === null && ctx.status < 400;
    if ((ok && (user || note)) || (note?.evenOnFailure && (failed !== null || ctx.status >= 400))) {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? ctx.path;
      const { kind, action } = describeRoute(ctx.method, route);
      const status = failed === null ? ctx.status : ((failed as { status?: number }).status ?? 500);
      const bodyId = (ctx.body as { id?: unknown } | undefined)?.id;
      const targetId = note?.target_id ?? ctx.params?.id ?? (typeof bodyId === 'number' || typeof bodyId === 'string' ? bodyId : null);
      const change: AuditChange = {
        before: note?.before !== undefined ? asRecord(note.before) : null,
        after: note?.after !== undefined ? asRecord(note.after) : asRecord(ctx.request.body),
      };
      const record: Omit<AuditRecord, 'id'> = {
        at: new Date().toISOString(),
        service,
        actor: note?.actor ?? (user ? { id: user.id, username: user.username, role: user.role } : null),
        ip: ctx.ip || null,
        action: note?.action ?? action,
        route: `${ctx.method} ${route}`,
        status,
        target_kind: note?.target_kind ?? kind,
        target_id: targetId === null || targetId === undefined ? null : String(targetId),
        change,
      };
      try {
        await outbox.add(AUDIT_SUBJECT, record as unknown as Record<string, unknown>);
      } catch (err) {
        // The change is made; the answer must say so. The record is lost only if the outbox write itself failed.
        logger.error({ err, action: record.action }, 'audit record not written');
      }
    }
    if (failed !== null) throw failed;
  };
}
