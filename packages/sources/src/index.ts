export * from './types';
export { ADAPTERS, adapterFor, isSourceId } from './adapters';
export { describingHeaders, detectSource } from './detect';
export { GENERIC_SCHEME } from './generic';
export {
  CLICKFUNNELS2_SCHEME,
  CONTACT_EVENTS as CLICKFUNNELS2_CONTACT_EVENTS,
  PAID_EVENTS as CLICKFUNNELS2_PAID_EVENTS,
} from './clickfunnels2';
export * from './intake';
export * from './test-delivery';
export * from './origin';
export * from './replay';
export * from './signing-changes';
export * from './cart';
export * from './cart-store';
export { stripeSecrets, stripeToleranceSeconds, STRIPE_SIGNATURE_HEADER } from './stripe';
export { fetchStripeLineItems } from './stripe/line-items';
export { purchaseCodes } from './stripe/promotion-codes';
export { isWooCommercePing, WOOCOMMERCE_SIGNATURE_HEADER } from './woocommerce';
export * from './contact-extras';
