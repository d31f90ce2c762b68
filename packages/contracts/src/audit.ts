/**
 * The audit log: who did what, when, from where, to which record, on which service. Every service records
 * its staff actions; svc-auth gathers them (over NATS) and answers the Audit Log page. Self-contained (only yup): the
 * browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/audit`.
 */
import * as yup from 'yup';

export const AUDIT_SUBJECT = 'audit.recorded';
/** Days an audit record is kept (AUDIT_RETENTION_DAYS). */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const AUDIT_SERVICES = ['svc-auth', 'svc-email', 'svc-sms'] as const;
export type AuditService = (typeof AUDIT_SERVICES)[number];

export interface AuditActor {
  id: number | null;
  username: string;
  role: 'admin' | 'user' | null;
}

/**
 * What changed: for an update, only the fields whose value moved, each before and after; for a deletion the state
 * before (after null); for a creation or an action, what was sent or done (before null). Secrets never: only
 * `[set]`, `[not set]`, `[changed]` or `[cleared]` (docs/privacy.md).
 */
export interface AuditChange {
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AuditRecord {
  /** The event id the recording service gave it (unique; a record heard twice is stored once). */
  id: string;
  at: string;
  service: AuditService;
  actor: AuditActor | null;
  /** The client address as the gateway saw it. */
  ip: string | null;
  /** e.g. `user.create`, `login.failed`, `webhook-integration.update`. */
  action: string;
  /** The route it went through (`PATCH /api/users/:id`). */
  route: string;
  status: number;
  target_kind: string | null;
  target_id: string | null;
  change: AuditChange;
}

export interface AuditPage {
  items: AuditRecord[];
  total: number;
  page: number;
  pageSize: number;
}

const DATE_MESSAGE = 'Dates must be ISO dates (YYYY-MM-DD or a full timestamp)';
const isoDate = () =>
  yup
    .string()
    .strict()
    .trim()
    .test('iso-date', DATE_MESSAGE, (v) => v === undefined || v === '' || !Number.isNaN(Date.parse(v)));

/** GET /api/audit-log (and its CSV export): filters, newest first, paged on the server. */
export const auditQuerySchema = yup
  .object({
    user: yup.string().strict().trim().max(100, 'User filter is too long'),
    service: yup.string().strict().oneOf([...AUDIT_SERVICES, ''], `Service must be one of ${AUDIT_SERVICES.join(', ')}`),
    action: yup.string().strict().trim().max(100, 'Action filter is too long'),
    from: isoDate(),
    to: isoDate(),
    page: yup.number().integer('Page must be a whole number').min(1, 'Page must be at least 1').default(1),
    pageSize: yup
      .number()
      .oneOf([...AUDIT_PAGE_SIZES], `Page size must be one of ${AUDIT_PAGE_SIZES.join(', ')}`)
      .default(AUDIT_PAGE_SIZES[0]),
  });
export type AuditQuery = yup.InferType<typeof auditQuerySchema>;
