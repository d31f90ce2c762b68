/**
 * "Send test delivery" posts a sample whose shopper is `test-delivery+<nonce>@example.com` (example.com is reserved,
 * RFC 2606: no shopper has it), with the header below. Intake stores its contact with `test: true` and the relayed
 * event carries the flag, so the other side stores it too; every reader reads the flag: a "Test" badge, no reminder,
 * in no count. The address alone marks only contacts stored before the flag (docs/delivery.md "Test deliveries").
 */
export const TEST_DELIVERY_LOCAL = 'test-delivery+';
export const TEST_DELIVERY_DOMAIN = '@example.com';

/** The sample's phone: 555-0100 is reserved for fiction (NANPA), so no shopper has it either. */
export const TEST_DELIVERY_PHONE = '+14155550100';

/** Set by "Send test delivery" on its sample; honoured only together with the sample's reserved address or phone. */
export const TEST_DELIVERY_HEADER = 'x-act-test-delivery';

export const testDeliveryEmail = (nonce: string): string => `${TEST_DELIVERY_LOCAL}${nonce}${TEST_DELIVERY_DOMAIN}`;

/** Whether an address is a test delivery's sample shopper (any case). */
export function isTestDeliveryEmail(email: string | null | undefined): boolean {
  if (typeof email !== 'string' || email.length > 254) return false;
  const e = email.trim().toLowerCase();
  return e.startsWith(TEST_DELIVERY_LOCAL) && e.endsWith(TEST_DELIVERY_DOMAIN) && e.length > TEST_DELIVERY_LOCAL.length + TEST_DELIVERY_DOMAIN.length;
}

/** A MongoDB filter value matching a lower-cased test address by its prefix (an index on the field serves it). */
export const TEST_DELIVERY_EMAIL_PATTERN = /^test-delivery\+[^@]*@example\.com$/;
