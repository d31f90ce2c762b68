/**
 * SWR keys of the email side: every load is a GET on its key (ui-kit's fetcher), and every change
 * refetches by these same strings, so a page and the change that affects it can never disagree on a
 * key. A list may be loaded under several keys (the contacts pages, the dashboard counts): each list has
 * one base path, and `matches(base)` selects all of its keys.
 */
import type { ContactStatus } from '@act/contracts/src/email-api';

export const CONTACTS = '/api/contacts';
export const EMAIL_LOGS = '/api/email-logs';
export const WEBHOOK_EVENTS = '/api/webhook-events';
export const INTEGRATIONS = '/api/webhook-integrations';
export const REMINDER_DELAY = '/api/settings/reminder-delay';
export const TEMPLATES = '/api/resend/templates';
export const WEBHOOK_SIGNING = '/api/webhook-signing';

/** The base path itself or the base path with a query string. */
export function matches(base: string) {
  return (key: unknown): boolean => typeof key === 'string' && (key === base || key.startsWith(`${base}?`));
}

function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return query ? `${base}?${query}` : base;
}

/** `integration` is an integration id, 'none' (contacts without one) or undefined (all). */
export interface ContactsQuery {
  page: number;
  pageSize: number;
  /** The server's sort parameter: `field` or `-field`. */
  sort: string;
  status?: ContactStatus;
  integration?: number | 'none';
}

/** One page of contacts (answers `{ items, total, page, pageSize }`). */
export function contactsPageKey(q: ContactsQuery): string {
  return withQuery(CONTACTS, {
    page: q.page,
    pageSize: q.pageSize,
    sort: q.sort,
    status: q.status,
    integration_id: q.integration,
  });
}

/** A count of contacts, optionally of one status: a one-row page, read for its `total`. */
export function contactsCountKey(status?: ContactStatus): string {
  return withQuery(CONTACTS, { page: 1, pageSize: 1, status });
}

/** The newest email logs (the server's default order is newest first) with the total count. */
export function recentEmailLogsKey(count: number): string {
  return withQuery(EMAIL_LOGS, { page: 1, pageSize: count });
}
