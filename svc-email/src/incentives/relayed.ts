import type { Collection } from 'mongodb';
import { IncentiveRedemptions, usedCodesFromEvent } from '@act/service-kit';
import type { FunnelPurchaseEvent } from '@act/contracts';
import type { ContactDoc } from '../contacts/model';

/**
 * Marks the codes of a purchase the SMS side received (and relayed) as redeemed on what this side's contacts were
 * given: an email step's code used in an order posted to the SMS integration. The contacts are the ones the purchase
 * rule names (the integration's contact id, else the address; a signed integration's only for a trusted fact),
 * whatever their status: one already marked purchased still had its code used. Reads nothing without codes.
 */
export function relayedCodesRedeemer(contacts: Collection<ContactDoc>) {
  const redemptions = IncentiveRedemptions.beside(contacts);
  return async (
    e: Partial<Pick<FunnelPurchaseEvent, 'contactId' | 'currency' | 'discountCodes' | 'amount'>>,
    match: { integrationId: number; email: string | null; excludeIntegrationIds: number[] },
    at: Date,
  ): Promise<number> => {
    const discountCodes = usedCodesFromEvent(e.discountCodes);
    if (discountCodes.length === 0) return 0;
    const contactId = e.contactId == null ? null : String(e.contactId);
    let refs: { id: number }[] = [];
    if (contactId) {
      const one = await contacts.findOne({ integration_id: match.integrationId, contact_id: contactId }, { projection: { _id: 0, id: 1 } });
      if (one) refs = [one];
    }
    if (refs.length === 0 && match.email) {
      const exclude = match.excludeIntegrationIds.length ? { integration_id: { $nin: match.excludeIntegrationIds } } : {};
      refs = await contacts.find({ email_lower: match.email.toLowerCase(), ...exclude }, { projection: { _id: 0, id: 1 } }).limit(100).toArray();
    }
    const currency = typeof e.currency === 'string' ? e.currency : null;
    return redemptions.redeemPurchase(refs.map((r) => r.id), { discountCodes, currency, contactId, amount: typeof e.amount === 'number' ? e.amount : null }, at);
  };
}
