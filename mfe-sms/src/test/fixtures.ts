/** Rows as the SMS API returns them, for the jsdom component tests (never bundled). */
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, type FakeReply, type RecordedCall } from '@act/ui-kit/src/testing';
import type {
  SmsContact,
  SmsIntegration,
  SmsIntegrationStats,
  SmsLog,
  SmsStatsResponse,
  SmsWebhookEvent,
} from '@act/contracts/src/sms-api';

// Formik validates asynchronously and MUI dialogs animate: on a loaded CI machine 1 s (the default wait of
// findBy/waitFor) is not always enough.
configure({ asyncUtilTimeout: 5000 });

export const signedIn = { 'GET /api/user': { json: { ...ADMIN, authenticated: true } } };

const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) - i * 60_000).toISOString();

export function contact(i: number, over: Partial<SmsContact> = {}): SmsContact {
  return {
    id: i,
    phone: `+1555${String(1_000_000 + i).padStart(7, '0')}`,
    contact_id: `c-${i}`,
    funnel_id: 'funnel-1',
    integration_id: 1,
    integration_name: 'Spring Funnel',
    status: 'pending',
    remind_at: at(i),
    created_at: at(i),
    first_name: null,
    email: null,
    next_send_at: null,
    messages_sent: 0,
    purchased_at: null,
    opted_out: false,
    held_until: null,
    held_by: null,
    cart: null,
    reminders_held: null,
    test: false,
    ...over,
  };
}

export function log(i: number, over: Partial<SmsLog> = {}): SmsLog {
  return {
    id: i,
    phone: '+15551230000',
    contact_id: `c-${i}`,
    integration_id: 1,
    template_id: 1,
    message: `Message ${i}`,
    sequence_order: 1,
    status: 'sent',
    message_sid: `SM${i}`,
    timestamp: at(i),
    error_message: null,
    ...over,
  };
}

export function event(i: number, over: Partial<SmsWebhookEvent> = {}): SmsWebhookEvent {
  return {
    id: i,
    type: 'contact',
    payload: JSON.stringify({ event: 'contact_created', n: i }),
    timestamp: at(i),
    ...over,
  };
}

export function integration(i: number, over: Partial<SmsIntegration> = {}): SmsIntegration {
  return {
    id: i,
    name: `Integration ${i}`,
    funnel_id: `funnel-${i}`,
    sms_campaign_id: null,
    reminder_delay: 30,
    active: true,
    created_at: at(i),
    campaign_name: null,
    checkout_fallback_url: null,
    webhook_url: `http://127.0.0.1:8080/api/sms/webhook/i/integration${i}key0123456789`,
    signing: { has_secret: false, source: null },
    ...over,
  };
}

export function integrationStats(over: Partial<SmsIntegrationStats> = {}): SmsIntegrationStats {
  return {
    integration_id: 1,
    integration_name: 'Spring Funnel',
    unique_phones: 3,
    total_sms_sent: 3,
    purchases_recorded: 0,
    duplicates_sent: 0,
    sent_count: 1,
    delivered_count: 2,
    failed_count: 0,
    queued_count: 0,
    skipped_duplicate_count: 0,
    blocked_toll_free_count: 0,
    duplicate_phones: [],
    ...over,
  };
}

export function statsResponse(stats: SmsIntegrationStats[], over: Partial<SmsStatsResponse> = {}): SmsStatsResponse {
  return {
    stats,
    integrations: stats.map((s) => ({ id: s.integration_id, name: s.integration_name })),
    daily: [{ date: '2026-01-01', sent: 3, delivered: 2 }],
    date_range: 'today',
    timezone: 'America/New_York',
    from: '2026-01-01T05:00:00.000Z',
    to: '2026-01-02T05:00:00.000Z',
    ...over,
  };
}

/**
 * Opens an MUI select by its label and picks an option. Label and listbox lookups stay narrow: role queries
 * over a page holding a 50-row table are slow in jsdom.
 */
export async function choose(label: string | RegExp, option: string | RegExp) {
  fireEvent.mouseDown(screen.getByLabelText(label, { selector: '[role="combobox"]' }));
  const listbox = await screen.findByRole('listbox');
  await click(within(listbox).getByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

/** The pagination bar (role queries over a whole 50-row table are slow in jsdom, so tests look inside it). */
export function pager(): HTMLElement {
  const nav = document.querySelector<HTMLElement>('nav[aria-label="Pagination"]');
  if (!nav) throw new Error('no pagination on the page');
  return nav;
}

/** The page-number buttons the pagination shows, in order. */
export function pageButtons(): number[] {
  return Array.from(pager().querySelectorAll('button[aria-label^="Page "]')).map((b) => Number(b.textContent));
}

/** A page-number button, or Previous/Next page. */
export function pageButton(name: string): HTMLElement {
  const b = pager().querySelector<HTMLElement>(`button[aria-label="${name}"]`);
  if (!b) throw new Error(`no pagination button ${name}`);
  return b;
}

/**
 * fireEvent wrapped in an async act: Formik validates asynchronously after each change, and the update must
 * land inside act or React warns.
 */
export async function change(el: Element, value: string) {
  await act(async () => {
    fireEvent.change(el, { target: { value } });
  });
}
export async function click(el: Element) {
  await act(async () => {
    fireEvent.click(el);
  });
}

/**
 * A fake of svc-sms's paged list (GET /api/sms-…?page=&pageSize=&search=&…): rows (read at each call, so a test
 * may change them) filtered by `matches` (search and the route's own filters, from the query), one page of them,
 * their total, and `summary` over every row, as the service answers. Mount it as `'GET /api/sms-…?': handler`.
 */
export function pagedList<T>(
  rows: () => readonly T[],
  {
    matches,
    summary,
  }: { matches: (row: T, query: URLSearchParams) => boolean; summary: (all: readonly T[]) => unknown },
): (call: RecordedCall) => FakeReply {
  return (call) => {
    const query = new URLSearchParams(call.path.split('?')[1] ?? '');
    const page = Number(query.get('page'));
    const pageSize = Number(query.get('pageSize') ?? 50);
    if (!page) return { status: 400, json: { error: 'the page asks for the paged form' } };
    const all = rows();
    const hits = all.filter((r) => matches(r, query));
    return {
      json: {
        items: hits.slice((page - 1) * pageSize, page * pageSize),
        total: hits.length,
        page,
        pageSize,
        summary: summary(all),
      },
    };
  };
}

/** The server's search rule: a case-insensitive substring of any of the fields. */
export function searchHits(query: URLSearchParams, fields: readonly (string | number | null | undefined)[]): boolean {
  const q = (query.get('search') ?? '').toLowerCase();
  return !q || fields.some((f) => f !== null && f !== undefined && String(f).toLowerCase().includes(q));
}

/** The query strings the page asked a list for, in order. */
export function queriesTo(calls: readonly RecordedCall[], path: string): URLSearchParams[] {
  return calls
    .filter((c) => c.method === 'GET' && c.path.startsWith(`${path}?`))
    .map((c) => new URLSearchParams(c.path.split('?')[1]));
}
