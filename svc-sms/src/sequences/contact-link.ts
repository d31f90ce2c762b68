import { recoveryExpired, workingRecoveryUrl } from '@act/contracts/src/cart';
import type { ContactDoc } from '../contacts/model';

/**
 * The link a text takes at `at` (a send's now, an interrupted send's claim, a preview's now): the contact's own while
 * it works, else its integration's fallback; `expired` when the sender's deadline has passed.
 */
export function linkAt(c: Pick<ContactDoc, 'cart'>, integration: { checkout_fallback_url?: string | null } | null, at: Date) {
  return { link: workingRecoveryUrl(c, at) || integration?.checkout_fallback_url || null, expired: recoveryExpired(c, at) };
}
