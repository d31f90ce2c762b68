import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { DateTime, IANAZone } from 'luxon';
import { zonesOfNumber } from './phone-zones';
import { PROVINCE_ZONES } from './provinces';

/** An address as a sender gives it (Shopify's `billing_address` / `shipping_address` fields). */
export interface AddressHint {
  country_code?: string | null;
  province_code?: string | null;
}

/** What is known of where a recipient lives, as the sender gave it. */
export interface ZoneHints {
  /** An IANA zone the sender gave (a `timezone` field). */
  timezone?: string | null;
  billingAddress?: AddressHint | null;
  shippingAddress?: AddressHint | null;
  /** The shopper's locale (Shopify's `customer_locale`: `en-AU`, `fr_CA`); only a locale with a region says where. */
  locale?: string | null;
  phone?: string | null;
  /** The country a number written without `+` is read in (the integration's country); else the address's. */
  phoneCountry?: string | null;
}

/** The hints a contact keeps (`zone_hints`, snake case as stored) as recipientZone reads them, beside its phone. */
export function zoneHintsOf(
  stored: { timezone?: string | null; billing_address?: AddressHint | null; shipping_address?: AddressHint | null; locale?: string | null } | null | undefined,
  phone: string | null | undefined,
): ZoneHints {
  return {
    timezone: stored?.timezone ?? null,
    billingAddress: stored?.billing_address ?? null,
    shippingAddress: stored?.shipping_address ?? null,
    locale: stored?.locale ?? null,
    phone: phone ?? null,
  };
}

export type ZoneBasis = 'given' | 'billing_address' | 'shipping_address' | 'locale' | 'phone' | 'integration';

export interface RecipientZone {
  /** IANA zone. */
  zone: string;
  basis: ZoneBasis;
}

const BASIS_TEXT: Record<ZoneBasis, string> = {
  given: 'from the time zone the sender gave',
  billing_address: 'from the billing address',
  shipping_address: 'from the shipping address',
  locale: "from the shopper's locale",
  phone: 'from the phone number',
  integration: "the integration's time zone",
};

/** How the timeline names a zone: `Australia/Sydney (from the phone number)`. */
export function describeZone(z: RecipientZone): string {
  return `${z.zone} (${BASIS_TEXT[z.basis]})`;
}

/**
 * Zone names already checked. luxon builds an `Intl.DateTimeFormat` for every check, a tenth of a millisecond or more,
 * and every step of every send asks for the recipient's zone; the names are few (the IANA list and what senders
 * write), kept up to a bound so arbitrary text from senders cannot grow the map.
 */
const checkedZones = new Map<string, boolean>();
const MAX_CHECKED_ZONES = 2_000;

function isZone(name: string): boolean {
  const known = checkedZones.get(name);
  if (known !== undefined) return known;
  const valid = IANAZone.isValidZone(name);
  if (checkedZones.size < MAX_CHECKED_ZONES) checkedZones.set(name, valid);
  return valid;
}

const validZone = (z: string | null | undefined): string | null => {
  const s = typeof z === 'string' ? z.trim() : '';
  return s && isZone(s) ? s : null;
};

const countryCode = (c: string | null | undefined): string | null => {
  const s = typeof c === 'string' ? c.trim().toUpperCase() : '';
  return /^[A-Z]{2}$/.test(s) ? s : null;
};

/** The zones ICU lists for a region (`und-AU`), empty when it knows none. */
function regionZones(country: string): string[] {
  try {
    const l = new Intl.Locale(`und-${country}`) as Intl.Locale & {
      timeZones?: string[];
      getTimeZones?: () => string[];
    };
    return l.getTimeZones?.() ?? l.timeZones ?? [];
  } catch {
    return [];
  }
}

/**
 * The one zone a whole country keeps, or null for a country that spans several: the only zone ICU lists for it, else
 * the only zone its calling code maps to (Germany lists Busingen beside Berlin; +49 maps to Berlin).
 */
export function countryZone(country: string): string | null {
  const zones = regionZones(country);
  if (zones.length === 1) return zones[0]!;
  try {
    const byCode = zonesOfNumber(getCountryCallingCode(country as CountryCode));
    if (byCode?.length === 1 && (zones.length === 0 || zones.includes(byCode[0]!))) return byCode[0]!;
  } catch {
    // Not a country with a calling code.
  }
  return null;
}

function addressZone(a: AddressHint | null | undefined): string | null {
  const country = countryCode(a?.country_code);
  if (!country) return null;
  const province =
    typeof a?.province_code === 'string' ? a.province_code.trim().toUpperCase().replace(`${country}-`, '') : '';
  return PROVINCE_ZONES[country]?.[province] ?? countryZone(country);
}

function localeZone(locale: string | null | undefined): string | null {
  if (typeof locale !== 'string' || !locale.trim()) return null;
  try {
    const region = new Intl.Locale(locale.trim().replace(/_/g, '-')).region;
    return region && /^[A-Z]{2}$/.test(region) ? countryZone(region) : null;
  } catch {
    return null;
  }
}

/** Whether zones keep the same clock all year (their offsets agree in January and in July). */
function oneClock(zones: string[]): boolean {
  const offsets = (month: number) =>
    new Set(zones.map((z) => DateTime.fromObject({ year: 2026, month, day: 1 }, { zone: z }).offset));
  return offsets(1).size === 1 && offsets(7).size === 1;
}

/**
 * The zone of a phone number: the one its prefix maps to (US and Canadian area codes, Australian mobiles...). A
 * prefix shared by several zones (UK mobiles: London and the Crown dependencies; Alaska's 907) decides when the
 * integration's zone is one of them, else when the number's country keeps one zone that is among them, else when
 * they all keep one clock (London, Guernsey, Isle of Man).
 */
function phoneZone(phone: string | null | undefined, country: string | null, integrationZone: string): string | null {
  if (typeof phone !== 'string' || !phone.trim()) return null;
  const parsed = parsePhoneNumberFromString(phone, (country ?? undefined) as CountryCode | undefined);
  if (!parsed) return null;
  const zones = zonesOfNumber(parsed.number.replace(/^\+/, ''))?.filter((z) => isZone(z));
  if (!zones?.length) return null;
  if (zones.length === 1) return zones[0]!;
  if (zones.includes(integrationZone)) return integrationZone;
  const national = parsed.country ? countryZone(parsed.country) : null;
  if (national && zones.includes(national)) return national;
  return oneClock(zones) ? zones[0]! : null;
}

/**
 * The recipient's zone and what it was taken from, first found wins: the zone the sender gave; the billing, then
 * the shipping address (a province in the US, Canada or Australia, else a country with one zone); the locale's
 * country when it has one zone; the phone number; else the integration's zone.
 */
export function recipientZone(hints: ZoneHints, integrationZone: string): RecipientZone {
  const given = validZone(hints.timezone);
  if (given) return { zone: given, basis: 'given' };
  const billing = addressZone(hints.billingAddress);
  if (billing) return { zone: billing, basis: 'billing_address' };
  const shipping = addressZone(hints.shippingAddress);
  if (shipping) return { zone: shipping, basis: 'shipping_address' };
  const byLocale = localeZone(hints.locale);
  if (byLocale) return { zone: byLocale, basis: 'locale' };
  const country =
    countryCode(hints.phoneCountry) ??
    countryCode(hints.billingAddress?.country_code) ??
    countryCode(hints.shippingAddress?.country_code);
  const byPhone = phoneZone(hints.phone, country, integrationZone);
  if (byPhone) return { zone: byPhone, basis: 'phone' };
  return { zone: validZone(integrationZone) ?? 'UTC', basis: 'integration' };
}
