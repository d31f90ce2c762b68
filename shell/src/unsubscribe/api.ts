/**
 * The unsubscribe calls (spec sms-and-unsubscribe §7) and their special rules. The admin list does not
 * go through ui-kit's request client: its errors read 'Server responded with {status}' and its load has
 * fallbacks of its own (§7 "Behaviour", §8).
 */

import type { UnsubscribeCheckResponse } from '@act/contracts/src/email-api';
import { isEmailAddress } from '@act/contracts/src/email-address';

export const UNSUBSCRIBE = '/api/unsubscribe';
export const DIRECT_UNSUBSCRIBES = '/api/direct-unsubscribes';
export const QUICK_ADD = '/api/email-unsubscribes/quick-add';
export const REMOVE = '/api/email-unsubscribes/remove';

/** §9: the list refetch interval. */
export const LIST_REFRESH_MS = 5000;
/**
 * §5: what an entry added without a reason says (the contracts' UNSUBSCRIBE_ADMIN_REASON; written out here so
 * the public page's chunk does not pull in the contracts' yup schemas; a test keeps the two equal).
 */
export const DEFAULT_REASON = 'Manually added by admin';

export const ALREADY_UNSUBSCRIBED = 'already-unsubscribed';

export interface UnsubscribeEntry {
  id: number | string;
  email: string;
  unsubscribed_at: string | null;
  reason: string | null;
  /** The placeholder row shown when the list cannot be read: never a real entry, never removable. */
  sample?: true;
}

/** GET /api/unsubscribe?email= answers `{ status, message }`. */
export type UnsubscribeStatus = Partial<UnsubscribeCheckResponse>;

export const unsubscribeStatusKey = (email: string) => `${UNSUBSCRIBE}?email=${encodeURIComponent(email)}`;

export function sampleEntry(now = new Date()): UnsubscribeEntry {
  return {
    id: 'sample',
    email: 'sample@example.com',
    unsubscribed_at: now.toISOString(),
    reason: 'Sample row: the unsubscribe list could not be read',
    sample: true,
  };
}

function entryOf(raw: unknown): UnsubscribeEntry | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.email !== 'string' || (typeof r.id !== 'number' && typeof r.id !== 'string')) return null;
  return {
    id: r.id,
    email: r.email,
    unsubscribed_at: typeof r.unsubscribed_at === 'string' ? r.unsubscribed_at : null,
    reason: typeof r.reason === 'string' ? r.reason : null,
  };
}

/**
 * The list from the response text. §7: empty or unparsable text is an empty list; text that parses but
 * is not a list of entries (the data itself cannot be read) falls back to the sample row.
 */
export function parseUnsubscribeList(text: string): UnsubscribeEntry[] {
  if (!text || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const rows = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { items?: unknown }).items)
      ? (parsed as { items: unknown[] }).items
      : null;
  if (!rows) return [sampleEntry()];
  const entries = rows.map(entryOf);
  return entries.every((e): e is UnsubscribeEntry => e !== null) ? entries : [sampleEntry()];
}

/** A non-OK answer: its message is the spec's 'Server responded with {status}'. */
export class ServerResponseError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`Server responded with ${status}`);
    this.name = 'ServerResponseError';
    this.status = status;
  }
}

/** The list loader (SWR fetcher). A network error gives the sample row; a non-OK answer is a load failure. */
export async function loadDirectUnsubscribes(path: string): Promise<UnsubscribeEntry[]> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'GET', credentials: 'include', headers: { Accept: 'application/json' } });
  } catch {
    return [sampleEntry()];
  }
  if (!res.ok) throw new ServerResponseError(res.status);
  const text = await res.text().catch(() => '');
  return parseUnsubscribeList(text);
}

/** POST with a JSON body; a non-OK answer throws ServerResponseError. */
export async function postJson(path: string, body: unknown): Promise<void> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'include',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new ServerResponseError(res.status);
}

/** §8: the toast text of a failed change. */
export function changeErrorText(err: unknown, fallback: string): string {
  return err instanceof ServerResponseError ? err.message : fallback;
}

/** §2: the load failure text. */
export function loadFailureText(err: unknown): string {
  const message = err instanceof Error && err.message ? err.message : 'Unknown error';
  return `Failed to load unsubscribe data: ${message}. Please try refreshing the page.`;
}

export const looksLikeEmail = (value: string) => isEmailAddress(value.trim());
