import { countryZone, describeZone, recipientZone } from './zone';

const NY = 'America/New_York';

describe('recipientZone', () => {
  it('takes a zone the sender gave before anything else, and ignores one that is not an IANA zone', () => {
    expect(recipientZone({ timezone: 'Europe/Paris', phone: '+61412345678' }, NY)).toEqual({
      zone: 'Europe/Paris',
      basis: 'given',
    });
    expect(recipientZone({ timezone: 'Mars/Olympus', phone: '+61412345678' }, NY)).toEqual({
      zone: 'Australia/Sydney',
      basis: 'phone',
    });
  });

  it('reads the billing address, then the shipping address: a province where the country spans zones', () => {
    expect(
      recipientZone({ billingAddress: { country_code: 'AU', province_code: 'WA' }, phone: '+61412345678' }, NY),
    ).toEqual({
      zone: 'Australia/Perth',
      basis: 'billing_address',
    });
    expect(recipientZone({ billingAddress: { country_code: 'us', province_code: 'CA' } }, NY).zone).toBe(
      'America/Los_Angeles',
    );
    expect(recipientZone({ billingAddress: { country_code: 'CA', province_code: 'CA-BC' } }, NY).zone).toBe(
      'America/Vancouver',
    );
    expect(
      recipientZone({ billingAddress: { country_code: 'US' }, shippingAddress: { country_code: 'DE' } }, NY),
    ).toEqual({
      zone: 'Europe/Berlin',
      basis: 'shipping_address',
    });
  });

  it('a country that spans zones without a province says nothing: the phone number decides', () => {
    expect(recipientZone({ billingAddress: { country_code: 'US' }, phone: '+1 310 555 0100' }, NY)).toEqual({
      zone: 'America/Los_Angeles',
      basis: 'phone',
    });
  });

  it('uses the locale only when it names a region of one zone', () => {
    expect(recipientZone({ locale: 'fr_FR' }, NY)).toEqual({ zone: 'Europe/Paris', basis: 'locale' });
    expect(recipientZone({ locale: 'en', phone: '+442079460000' }, NY)).toEqual({
      zone: 'Europe/London',
      basis: 'phone',
    });
    expect(recipientZone({ locale: 'en-AU' }, NY)).toEqual({ zone: NY, basis: 'integration' });
    expect(recipientZone({ locale: '%%' }, NY).basis).toBe('integration');
  });

  it('maps US and Canadian area codes to their zones', () => {
    expect(recipientZone({ phone: '+1 212 555 0100' }, 'UTC')).toEqual({ zone: NY, basis: 'phone' });
    expect(recipientZone({ phone: '+1 415 555 0100' }, 'UTC')).toEqual({ zone: 'America/Los_Angeles', basis: 'phone' });
    expect(recipientZone({ phone: '+1 312 555 0100' }, 'UTC').zone).toBe('America/Chicago');
    expect(recipientZone({ phone: '+1 604 555 0100' }, 'UTC').zone).toBe('America/Vancouver');
    expect(recipientZone({ phone: '(415) 555-0100', phoneCountry: 'US' }, 'UTC').zone).toBe('America/Los_Angeles');
  });

  it("takes the longest prefix of the map (Idaho's 208 splits between Mountain and Pacific by exchange)", () => {
    expect(recipientZone({ phone: '+1 208 201 0100' }, 'UTC').zone).toBe('America/Denver');
    expect(recipientZone({ phone: '+1 208 215 0100' }, 'UTC').zone).toBe('America/Los_Angeles');
  });

  it('maps an Australian mobile to Sydney, a London number to London', () => {
    expect(recipientZone({ phone: '+61 412 345 678' }, NY)).toEqual({ zone: 'Australia/Sydney', basis: 'phone' });
    expect(recipientZone({ phone: '+44 20 7946 0000' }, NY)).toEqual({ zone: 'Europe/London', basis: 'phone' });
  });

  it('a prefix shared by zones of one clock (UK mobiles: London, Guernsey, Isle of Man) takes one of them', () => {
    const z = recipientZone({ phone: '+44 7911 123456' }, NY);
    expect(z.basis).toBe('phone');
    expect(['Europe/London', 'Europe/Guernsey', 'Europe/Isle_of_Man']).toContain(z.zone);
    expect(recipientZone({ phone: '+44 7911 123456' }, 'Europe/London').zone).toBe('Europe/London');
  });

  it("a prefix shared by zones decides only with the integration's zone among them", () => {
    expect(recipientZone({ phone: '+1 907 555 0100' }, NY)).toEqual({ zone: NY, basis: 'integration' });
    expect(recipientZone({ phone: '+1 907 555 0100' }, 'America/Anchorage')).toEqual({
      zone: 'America/Anchorage',
      basis: 'phone',
    });
  });

  it("falls back to the integration's zone (UTC when that is not a zone either)", () => {
    expect(recipientZone({ phone: 'not a number' }, NY)).toEqual({ zone: NY, basis: 'integration' });
    expect(recipientZone({}, 'nowhere')).toEqual({ zone: 'UTC', basis: 'integration' });
  });

  it('names the zone and its basis for the timeline', () => {
    expect(describeZone({ zone: 'Australia/Sydney', basis: 'phone' })).toBe('Australia/Sydney (from the phone number)');
  });
});

describe('countryZone', () => {
  it('is the zone of a one-zone country, by ICU or by calling code, and null for a country of several', () => {
    expect(countryZone('FR')).toBe('Europe/Paris');
    expect(countryZone('DE')).toBe('Europe/Berlin');
    expect(countryZone('JM')).toBe('America/Jamaica');
    expect(countryZone('US')).toBeNull();
    expect(countryZone('AU')).toBeNull();
    expect(countryZone('ZZ')).toBeNull();
  });
});
