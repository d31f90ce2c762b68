/**
 * One person's story: the contact page's timeline of everything about a person across both channels, newest first.
 * The browser makes one call to the gateway (`GET /api/contacts/:id/timeline`, `GET /api/sms-contacts/:id/timeline`);
 * the gateway asks each service for its own part over the service's internal route (`GET /internal/timeline`) and
 * merges them. Self-contained: the browser bundle imports it too.
 *
 * Import path: `@act/contracts/src/timeline`.
 */

export type TimelineSide = 'email' | 'sms';

/**
 * `delivery`: a sender's webhook delivery about the person (with its source and verification); `message`: a reminder
 * written (sent, simulated, held, skipped or refused, with the reason); `provider`: what Resend or Twilio reported for
 * it; `purchase`: with the message it is attributed to; `unsubscribe` and `opt_out`; `staff`: an action by a user.
 */
export const TIMELINE_KINDS = ['delivery', 'message', 'provider', 'purchase', 'unsubscribe', 'opt_out', 'staff'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** The reminder a purchase is credited to (the revenue setting's model and window). */
export interface TimelineAttribution {
  channel: TimelineSide;
  /** When the credited reminder was written. */
  sent_at: string;
  step: number | null;
  template_id: number | null;
  campaign_id: number | null;
  /** Only logged (live sending off): no shopper received it. */
  simulated: boolean;
}

export interface TimelineEntry {
  /** Unique across both sides, and the order's tiebreak: entries of the same instant sort by key, descending. */
  key: string;
  /** ISO 8601 UTC. */
  at: string;
  /** The side whose data it is; a purchase both ledgers hold is answered by both and shown once. */
  side: TimelineSide;
  kind: TimelineKind;
  /** One line a shop owner reads ("Reminder simulated (live sending off)", "SMS held by the blackout"). */
  title: string;
  /** The stored status as the API has it (`would_send`, `held_blackout`, `delivered`, `contact_created`...). */
  status: string | null;
  /** Why (a skip's or refusal's reason, the verification's reason) or what (the message's first words). */
  detail: string | null;
  /** Deliveries: the sender (`generic`, `clickfunnels2`, `shopify`...) and the signature check's result. */
  source?: string | null;
  verification?: string | null;
  /** Purchases. */
  amount?: number | null;
  currency?: string | null;
  attributed?: TimelineAttribution | null;
  /** The record it comes from, for a link (an email log id, an SMS log id, a webhook event id). */
  ref?: { collection: string; id: number | string } | null;
}

/** What the contact page shows of the cart a sender gave (a subset of the contact's `cart`; amounts in minor units). */
export interface TimelineCart {
  items: { name: string; variant: string | null; quantity: number; line_total: number | null }[];
  more_items: number;
  total: number | null;
  currency: string | null;
  recovery_url: string | null;
}

/** A contact of the person on either side, as the page's header shows it. */
export interface TimelineContact {
  side: TimelineSide;
  id: number;
  contact_id: string;
  email: string | null;
  /** E.164 on the SMS side; as the sender sent it on the email side. */
  phone: string | null;
  first_name: string | null;
  integration_id: number | null;
  integration_name: string | null;
  funnel_id: string | null;
  status: string;
  /** Why no reminder goes to this contact (no promotional consent, a test delivery); null or absent: none. */
  reminders_held?: string | null;
  /** Its reminder was only logged (live sending off): screens write "Sent (simulated)", never "sent". */
  simulated?: boolean;
  created_at: string;
  purchased_at: string | null;
  /** The cart, when the sender gave one. */
  cart?: TimelineCart | null;
}

/** Who the timeline is about: every name the contact goes by (the match across sides). */
export interface TimelinePerson {
  /** Lower-cased. */
  emails: string[];
  /** E.164 where it could be read as a number. */
  phones: string[];
  /** The sender's contact ids with their funnel. */
  contact_ids: { funnel_id: string | null; contact_id: string }[];
}

/** GET /api/contacts/:id/timeline and /api/sms-contacts/:id/timeline. */
export interface TimelinePage {
  /** The contact the page is for. */
  contact: TimelineContact;
  /** Every contact of the person on both sides (the page's own one included). */
  contacts: TimelineContact[];
  person: TimelinePerson;
  entries: TimelineEntry[];
  /** Pass as `?before=` for the next (older) page; null when this page is the last. */
  next: string | null;
  /** A side that did not answer: its entries are missing from this page (the rest is still shown). */
  unavailable: TimelineSide[];
}

/** GET /internal/timeline on each service: its own part. */
export interface TimelinePart {
  /** The anchor contact when asked by `contact`; null when asked by person. */
  contact: TimelineContact | null;
  contacts: TimelineContact[];
  person: TimelinePerson;
  entries: TimelineEntry[];
  /** Whether older entries remain on this side. */
  more: boolean;
}

export const TIMELINE_PAGE_SIZE = 50;
export const TIMELINE_MAX_PAGE_SIZE = 200;

/** Where a page stops: the last entry's instant and key (every later page holds only entries after it in order). */
export interface TimelineCursor {
  at: number;
  key: string;
}

/** Newest first, then key descending: one total order both services and the gateway apply. */
export function compareEntries(a: { at: string | number; key: string }, b: { at: string | number; key: string }): number {
  const ta = typeof a.at === 'number' ? a.at : Date.parse(a.at);
  const tb = typeof b.at === 'number' ? b.at : Date.parse(b.at);
  if (ta !== tb) return tb - ta;
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/** Whether an entry comes after the cursor in the timeline's order (older, or as old with a smaller key). */
export function isAfterCursor(e: { at: string | number; key: string }, c: TimelineCursor | null): boolean {
  return c === null || compareEntries(e, c) > 0;
}

export function encodeCursor(c: TimelineCursor): string {
  return `${c.at}~${c.key}`;
}

/** The cursor of `?before=`, or null when it is not one this API wrote. */
export function decodeCursor(text: string): TimelineCursor | null {
  const m = /^(\d{1,15})~([\w.:@+-]{1,200})$/.exec(text);
  return m ? { at: Number(m[1]), key: m[2]! } : null;
}

/** A numeric record id as a key part that sorts as text in the order of the numbers. */
export function keyId(n: number): string {
  return String(n).padStart(15, '0');
}

/**
 * The person's names in the form both ledgers use for buyers (packages/contracts attribution): `e:<email>`,
 * `p:<last ten digits>`, `c:<funnel id>:<contact id>`. Deliveries are stored with them, so one index finds a
 * person's deliveries by any of them.
 */
export function personKeys(p: TimelinePerson): string[] {
  const keys = new Set<string>();
  for (const e of p.emails) keys.add(`e:${e.trim().toLowerCase()}`);
  for (const ph of p.phones) {
    const d = ph.replace(/\D/g, '');
    if (d.length >= 7) keys.add(`p:${d.slice(-10)}`);
  }
  for (const c of p.contact_ids) keys.add(`c:${c.funnel_id ?? ''}:${c.contact_id}`);
  return [...keys];
}

/** The person as a query string for a service's internal route (`email=`, `phone=`, `contact=<funnel>:<id>`, repeated). */
export function personQuery(p: TimelinePerson): URLSearchParams {
  const q = new URLSearchParams();
  for (const e of p.emails) q.append('email', e);
  for (const ph of p.phones) q.append('phone', ph);
  for (const c of p.contact_ids) q.append('contact_key', `${c.funnel_id ?? ''}:${c.contact_id}`);
  return q;
}

/** Two people's names together, each list without repeats. */
export function mergePeople(a: TimelinePerson, b: TimelinePerson): TimelinePerson {
  const ids = new Map<string, { funnel_id: string | null; contact_id: string }>();
  for (const c of [...a.contact_ids, ...b.contact_ids]) ids.set(`${c.funnel_id ?? ''}:${c.contact_id}`, c);
  return {
    emails: [...new Set([...a.emails, ...b.emails].map((e) => e.toLowerCase()))],
    phones: [...new Set([...a.phones, ...b.phones])],
    contact_ids: [...ids.values()],
  };
}

/**
 * The parts of both sides as one page: newest first, an entry both sides answered (a purchase in both ledgers) once,
 * at most `limit`. `next` is the last entry's cursor when either side has more than what the page shows.
 */
export function mergeParts(parts: readonly Pick<TimelinePart, 'entries' | 'more'>[], limit: number): { entries: TimelineEntry[]; next: string | null } {
  const seen = new Set<string>();
  const all: TimelineEntry[] = [];
  for (const e of parts.flatMap((p) => p.entries).sort(compareEntries)) {
    if (seen.has(e.key)) continue;
    seen.add(e.key);
    all.push(e);
  }
  const entries = all.slice(0, limit);
  const more = all.length > limit || parts.some((p) => p.more);
  const last = entries[entries.length - 1];
  return { entries, next: more && last ? encodeCursor({ at: Date.parse(last.at), key: last.key }) : null };
}

const DELIVERY_TITLES: Record<string, string> = {
  created: 'Delivery received: contact created',
  updated: 'Delivery received: contact updated',
  purchase: 'Delivery received: purchase',
  duplicate: 'Delivery received again (duplicate, not applied)',
  ignored: 'Delivery received and ignored',
  rejected: 'Delivery refused (signature)',
  invalid: 'Delivery refused (invalid)',
  handshake: 'Delivery received: handshake',
};

/** The line a webhook delivery reads as, on either side ("on the SMS webhook" for that side's). */
export function deliveryTitle(outcome: string | null | undefined, side: TimelineSide): string {
  const title = DELIVERY_TITLES[outcome ?? ''] ?? 'Delivery received';
  return side === 'sms' ? `${title} on the SMS webhook` : title;
}
