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
}

declare module 'koa' {
  interface DefaultState {
    audit?: AuditNote;
  }
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Field names whose values never reach the log: only that they were set. */
const SECRET = /pass(word)?|secret|token|api[_-]?key|auth|signature|credential|sid$/i;
const MAX_STRING = 500;
const MAX_KEYS = 50;

/** A copy safe to keep: secrets replaced by "[set]" / "[cleared]", long texts cut, depth bounded. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  }
  if (depth >= 3) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_KEYS).map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_KEYS)) {
    out[k] = SECRET.test(k) ? (v === null || v === '' ? '[cleared]' : '[set]') : redact(v, depth + 1);
  }
  return out;
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
 * as the change's own events. svc-auth gathers them. A call that failed changed nothing and is not recorded.
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
