import { zoneHintsOf } from './timing';

describe('zoneHintsOf', () => {
  it("reads Shopify's, WooCommerce's and Stripe's address fields and a locale", () => {
    expect(zoneHintsOf({ billing_address: { country_code: 'au', province_code: 'nsw', city: 'Sydney' }, locale: 'en-AU' })).toEqual({
      timezone: null,
      billing_address: { country_code: 'AU', province_code: 'NSW' },
      shipping_address: null,
      locale: 'en-AU',
    });
    // WooCommerce's billing / shipping and Stripe's customer_details.address: `country` and `state`.
    expect(zoneHintsOf({ billing_address: { country: 'US', state: 'CA' }, shipping_address: { country: 'CA', state: '' } })).toEqual({
      timezone: null,
      billing_address: { country_code: 'US', province_code: 'CA' },
      shipping_address: { country_code: 'CA', province_code: null },
      locale: null,
    });
    expect(zoneHintsOf({ timezone: 'America/Argentina/Buenos_Aires' })?.timezone).toBe('America/Argentina/Buenos_Aires');
  });

  it('keeps nothing that is not a short code, and is null when nothing is left', () => {
    expect(zoneHintsOf({})).toBeNull();
    expect(zoneHintsOf({ timezone: '<script>', billing_address: { country_code: 'Australia' }, locale: 'x'.repeat(500) })).toBeNull();
    expect(zoneHintsOf({ billing_address: 'AU', shipping_address: ['AU'], locale: 42 })).toBeNull();
  });
});
