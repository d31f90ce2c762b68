import type { Collection, Filter } from 'mongodb';
import { creditedTouch, type AttributionModel, type Channel, type Touch } from '@act/contracts/src/attribution';
import type { RevenuePurchaseRow } from '@act/contracts/src/revenue-api';
import { BadRequestError } from '../errors';
import type { PurchaseDoc } from './ledger';

/** Where a page of the list starts: after this purchase (its time, then its `_id`, both descending). */
export interface PurchaseCursor {
  at: Date;
  id: string;
}

/** The list's `next` / `before`: opaque to the client (base64url of the last row's time and id). */
export function encodeCursor(c: PurchaseCursor): string {
  return Buffer.from(JSON.stringify([c.at.getTime(), c.id])).toString('base64url');
}

export function decodeCursor(v: string): PurchaseCursor {
  try {
    const [ms, id] = JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as unknown[];
    if (typeof ms === 'number' && Number.isFinite(ms) && typeof id === 'string') return { at: new Date(ms), id };
  } catch {
    // told below
  }
  throw new BadRequestError('before must be a next value this list answered');
}

/** The buyer a purchase names, from its ledger keys (`c:<funnel>:<contact id>`, `e:<email>`, `p:<digits>`). */
export function buyerOf(keys: readonly string[], funnelId: string | null): { contactId: string | null; email: string | null; phone: string | null } {
  // The funnel id may itself hold a colon: the contact id is what follows the funnel id the purchase carries.
  const own = `c:${funnelId ?? ''}:`;
  const c = keys.find((k) => k.startsWith(own));
  const e = keys.find((k) => k.startsWith('e:'));
  const p = keys.find((k) => k.startsWith('p:'));
  return { contactId: c ? c.slice(own.length) : null, email: e ? e.slice(2) : null, phone: p ? p.slice(2) : null };
}

/** A purchase with the touch it is credited to. */
export interface CreditedPurchase {
  doc: PurchaseDoc;
  touch: Touch;
}

/** Read at most this many purchases for one page: a page of a ledger of mostly organic purchases stops there. */
const MAX_SCANNED = 1000;

/**
 * The newest purchases credited to a reminder, after `before`: read newest first by the `{purchasedAt: -1, _id: -1}`
 * index (or its funnel one), each credited as the summary does (real sends of this side's channel within the
 * window). Answers the page and where the next one starts: after the last purchase read, which may be an organic one
 * past the last row when the read stopped at MAX_SCANNED.
 */
export async function recentCredited(
  purchases: Collection<PurchaseDoc>,
  opts: { funnelId?: string | null; before: PurchaseCursor | null; limit: number; windowDays: number; model: AttributionModel; channel?: Channel },
): Promise<{ rows: CreditedPurchase[]; next: PurchaseCursor | null }> {
  const rows: CreditedPurchase[] = [];
  let cursor = opts.before;
  let scanned = 0;
  const batch = Math.min(MAX_SCANNED, Math.max(50, opts.limit * 2));
  for (;;) {
    const filter: Filter<PurchaseDoc> = {
      ...(opts.funnelId !== undefined ? { funnelId: opts.funnelId } : {}),
      'touches.0': { $exists: true },
      ...(cursor ? { $or: [{ purchasedAt: { $lt: cursor.at } }, { purchasedAt: cursor.at, _id: { $lt: cursor.id } }] } : {}),
    };
    const docs = await purchases.find(filter).sort({ purchasedAt: -1, _id: -1 }).limit(batch).toArray();
    for (const doc of docs) {
      scanned++;
      cursor = { at: doc.purchasedAt, id: doc._id };
      const real = doc.touches.filter((t) => !t.simulated && !t.holdout && (!opts.channel || t.channel === opts.channel));
      const touch = creditedTouch(doc.purchasedAt, real, opts.windowDays, opts.model);
      if (touch) rows.push({ doc, touch });
      if (rows.length === opts.limit) return { rows, next: cursor };
    }
    if (docs.length < batch) return { rows, next: null };
    if (scanned >= MAX_SCANNED) return { rows, next: cursor };
  }
}

/** One row as the API answers it; the side adds its contact number and integration. */
export function purchaseRow(
  { doc, touch }: CreditedPurchase,
  extra: { contactNumber: number | null; integration: { id: number; name: string } | null },
): RevenuePurchaseRow {
  const buyer = buyerOf(doc.buyerKeys, doc.funnelId);
  return {
    purchased_at: doc.purchasedAt.toISOString(),
    contact: { id: extra.contactNumber, contact_id: buyer.contactId, email: buyer.email, phone: buyer.phone },
    integration: extra.integration,
    amount: doc.amount,
    currency: doc.currency,
    credited: {
      channel: touch.channel,
      campaign_id: touch.campaignId,
      template_id: touch.templateId,
      step: touch.step,
      variant: touch.variant ?? null,
      sent_at: new Date(touch.sentAt).toISOString(),
    },
    recovered_from: doc.recoveredFrom ?? null,
  };
}
