import type { Connection } from 'mongoose';
import { IncentiveRedemptions, incentiveModels, usedCodesFromEvent } from '@act/service-kit';
import type { FunnelPurchaseEvent } from '@act/contracts';
import { contactModel } from '../contacts/model';

/**
 * Marks the codes of a purchase the email side received (and relayed) as redeemed on what this side's contacts were
 * given: an SMS step's code used in an order posted to the email integration. The contacts are the ones the event's
 * purchase rule names (same funnel and contact id, or same phone), whatever their status: one already marked
 * purchased still had its code used. Reads nothing for a purchase without codes.
 */
export function relayedCodesRedeemer(conn: Connection) {
  const Contact = contactModel(conn);
  const redemptions = IncentiveRedemptions.of(incentiveModels(conn));
  return async (e: Partial<Pick<FunnelPurchaseEvent, 'contactId' | 'currency' | 'discountCodes' | 'amount'>>, funnelId: string | null, phone: string | null, at: Date): Promise<number> => {
    const discountCodes = usedCodesFromEvent(e.discountCodes);
    if (discountCodes.length === 0) return 0;
    const contactId = e.contactId == null ? null : String(e.contactId);
    const or: Record<string, unknown>[] = [];
    if (contactId && funnelId) or.push({ funnel_id: funnelId, contact_id: contactId });
    if (phone) or.push(funnelId ? { funnel_id: funnelId, phone } : { phone });
    if (or.length === 0) return 0;
    const rows = await Contact.find(or.length === 1 ? or[0]! : { $or: or }, { _id: 0, id: 1 }).limit(100).lean<{ id: number }[]>();
    const currency = typeof e.currency === 'string' ? e.currency : null;
    return redemptions.redeemPurchase(rows.map((r) => r.id), { discountCodes, currency, contactId, amount: typeof e.amount === 'number' ? e.amount : null }, at);
  };
}
