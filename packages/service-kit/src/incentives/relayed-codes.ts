import type { UsedPurchaseCode } from '@act/contracts';

/** At most this many codes are read from one relayed purchase (an order carries a few). */
const MAX_CODES = 20;

/**
 * The codes a relayed purchase event says were used, read again through their limits (the payload is JSON from the
 * stream): strings only, trimmed and capped, the discount as the sender wrote it or null.
 */
export function usedCodesFromEvent(v: unknown): UsedPurchaseCode[] {
  if (!Array.isArray(v)) return [];
  const out: UsedPurchaseCode[] = [];
  for (const c of v.slice(0, MAX_CODES)) {
    if (!c || typeof c !== 'object') continue;
    const { code, amount } = c as { code?: unknown; amount?: unknown };
    if (typeof code !== 'string' || !code.trim()) continue;
    out.push({ code: code.trim().slice(0, 100), amount: typeof amount === 'number' || typeof amount === 'string' ? amount : null });
  }
  return out;
}
