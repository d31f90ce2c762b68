import { fitSmsMessage, type FittedSms } from '@act/contracts/src/sms-segments';
import type { ContactDoc } from '../contacts/model';

/**
 * One contact's SMS for one template: the shared renderer (both editors preview with it), the first item's name
 * shortened when the filled-in message would take more segments than the template's typical one. A pure function:
 * the send and the look-up of an interrupted send write the same text.
 */
export function smsBody(
  template: string,
  c: Pick<ContactDoc, 'first_name' | 'cart'>,
  link: string | null,
  discountCode?: string | null,
): FittedSms {
  return fitSmsMessage(template, { firstName: c.first_name, cart: c.cart ?? null, recoveryUrl: link, discountCode: discountCode ?? null });
}
