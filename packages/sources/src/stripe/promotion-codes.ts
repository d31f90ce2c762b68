import Stripe from 'stripe';
import type { PurchaseFact, UsedDiscountCode } from '../types';
import { apiOptions } from './line-items';

/**
 * The codes a paid purchase used, with Stripe's promotion codes read: a Checkout Session names them by id only
 * (`promo_…`), so each is asked for once through the official library (`promotionCodes.retrieve`, the customer-facing
 * `code`) with the integration's restricted key. Without a key, or when Stripe refuses, the note says so for the
 * delivery's row and those codes are left out (no issued code is marked redeemed from them).
 */
export async function purchaseCodes(
  fact: PurchaseFact,
  opts: { apiKey: string | null; apiBase?: string; timeoutMs?: number },
): Promise<{ discountCodes: UsedDiscountCode[]; note: string | null }> {
  const known = fact.discountCodes ?? [];
  const refs = fact.promotionCodeRefs ?? [];
  if (refs.length === 0) return { discountCodes: known, note: null };
  const ids = refs.map((r) => r.id).join(', ');
  if (!opts.apiKey)
    return {
      discountCodes: known,
      note: `Promotion code ${ids}: the integration holds no Stripe key, so the code it stands for could not be read and no issued code was marked redeemed`,
    };
  const client = new Stripe(opts.apiKey, {
    ...apiOptions(opts.apiBase ?? process.env.STRIPE_API_BASE),
    timeout: opts.timeoutMs ?? 5_000,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: 'AbandonedCartTracker' },
  });
  const found: UsedDiscountCode[] = [];
  const failed: string[] = [];
  for (const ref of refs) {
    try {
      const promo = await client.promotionCodes.retrieve(ref.id);
      if (promo.code) found.push({ code: promo.code.slice(0, 200), amount: ref.amount });
    } catch (err) {
      failed.push(`${ref.id} (${((err as Error).message || 'no answer').slice(0, 200)})`);
    }
  }
  return {
    discountCodes: [...known, ...found],
    note: failed.length ? `Promotion code ${failed.join(', ')}: not read from Stripe, so no issued code was marked redeemed from it` : null,
  };
}
