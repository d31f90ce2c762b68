import type { Connection } from 'mongoose';
import type { IncentiveRedemptions } from '@act/service-kit';
import { contactModel } from '../contacts/model';

/** A purchase as far as its used codes go. */
export interface PurchaseCodes {
  contactId: string | null;
  currency: string | null;
  /** The order's amount, major units. */
  amount?: number | null;
  discountCodes?: { code: string; amount: string | number | null }[];
}

/**
 * Marks the codes a webhook's purchase used as redeemed on what its contacts were given, matching the contacts as the
 * purchase does (the integration's contact id, else its phone). Reads nothing for a purchase without codes.
 */
export function smsPurchaseRedeemer(conn: Connection, redemptions: IncentiveRedemptions) {
  const Contact = contactModel(conn);
  return async (integrationId: number, purchase: PurchaseCodes, phone: string | null): Promise<number> => {
    if (!purchase.discountCodes?.length) return 0;
    let rows = purchase.contactId
      ? await Contact.find({ integration_id: integrationId, contact_id: purchase.contactId }, { _id: 0, id: 1 }).lean<{ id: number }[]>()
      : [];
    if (rows.length === 0 && phone) rows = await Contact.find({ integration_id: integrationId, phone }, { _id: 0, id: 1 }).lean<{ id: number }[]>();
    return redemptions.redeemPurchase(rows.map((r) => r.id), purchase);
  };
}
