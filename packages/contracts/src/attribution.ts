/**
 * Recovered-revenue attribution, one rule for both services (docs/revenue.md). Pure: each service feeds it the
 * purchases and reminders (touches) its own ledger heard over NATS, so the two sides agree without reading each
 * other's database.
 */

export type Channel = 'email' | 'sms';
export type AttributionModel = 'last' | 'first';

export const DEFAULT_WINDOW_DAYS = 7;
/** The longest window a query may ask for: a purchase keeps the touches of this long before it. */
export const MAX_WINDOW_DAYS = 90;
export const DAY_MS = 86_400_000;
/**
 * Two purchase reports of the same buyer, amount and currency this close together are one purchase: the same order
 * heard on both webhooks, or once by webhook and once from the other service.
 */
export const SAME_PURCHASE_MS = 10 * 60_000;

/** One reminder to one contact, as the ledgers keep it (field order fixed: the ledgers compare whole objects). */
export interface Touch {
  key: string;
  channel: Channel;
  funnelId: string | null;
  integrationId: number | null;
  campaignId: number | null;
  templateId: number | null;
  step: number | null;
  sentAt: Date;
  /**
   * Only logged (live sending off): no shopper received it. Kept apart: never credited as recovered, never counted as
   * reminded; the summary shows what it would have been credited. Present only when true, so a real touch compares
   * equal to the ones recorded before the field existed.
   */
  simulated?: true;
  /** The variant of its step the contact got (absent: the step's own content). */
  variant?: string;
  /**
   * Not a send: the contact was held out of the campaign (the control group) when this reminder would have gone. Kept
   * so the holdout's purchases are measured the same way; never credited, never counted as reminded.
   */
  holdout?: true;
}

export interface Buyer {
  funnelId: string | null;
  contactId: string | null;
  email: string | null;
  phone: string | null;
}

export function normEmail(v: string | null | undefined): string | null {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return s ? s : null;
}

/** Digits only: the funnel's "(555) 000-1111" and Twilio's "+15550001111" differ only by a country code then. */
export function normPhone(v: string | null | undefined): string | null {
  const d = typeof v === 'string' ? v.replace(/\D/g, '') : '';
  return d.length >= 7 ? d.slice(-10) : null;
}

/** Every name a contact goes by; a purchase and a reminder belong together when they share one. */
export function buyerKeys(b: Buyer): string[] {
  const keys: string[] = [];
  if (b.contactId) keys.push(`c:${b.funnelId ?? ''}:${b.contactId}`);
  const email = normEmail(b.email);
  if (email) keys.push(`e:${email}`);
  const phone = normPhone(b.phone);
  if (phone) keys.push(`p:${phone}`);
  return keys;
}

/** What makes two purchase reports the same purchase (with SAME_PURCHASE_MS); null when the buyer has no name. */
export function purchaseFingerprint(b: Buyer & { amount: number | null; currency: string | null }): string | null {
  const who = buyerKeys(b)[0];
  if (!who) return null;
  return [who, b.amount ?? '', (b.currency ?? '').toUpperCase()].join('|');
}

export function makeTouch(t: Touch): Touch {
  return {
    key: t.key,
    channel: t.channel,
    funnelId: t.funnelId ?? null,
    integrationId: t.integrationId ?? null,
    campaignId: t.campaignId ?? null,
    templateId: t.templateId ?? null,
    step: t.step ?? null,
    sentAt: new Date(t.sentAt),
    ...(t.simulated ? { simulated: true as const } : {}),
    ...(t.variant ? { variant: t.variant } : {}),
    ...(t.holdout ? { holdout: true as const } : {}),
  };
}

/**
 * The reminder a purchase is credited to, or null (organic): among the touches sent at or before the purchase and
 * no longer than `windowDays` before it, the latest (`last`) or the earliest (`first`). Ties go to the smaller key,
 * so both services pick the same one.
 */
export function creditedTouch(purchasedAt: Date, touches: readonly Touch[], windowDays: number, model: AttributionModel): Touch | null {
  const at = purchasedAt.getTime();
  const from = at - windowDays * DAY_MS;
  let best: Touch | null = null;
  for (const t of touches) {
    const sent = new Date(t.sentAt).getTime();
    if (sent > at || sent < from) continue;
    if (!best) {
      best = t;
      continue;
    }
    const b = new Date(best.sentAt).getTime();
    const better = model === 'last' ? sent > b || (sent === b && t.key < best.key) : sent < b || (sent === b && t.key < best.key);
    if (better) best = t;
  }
  return best;
}
