import * as yup from 'yup';

/** The longest frequency cap an account may set: one message a week. */
export const FREQUENCY_CAP_MAX_HOURS = 168;

export const timingMessages = {
  frequencyCapHours: `Frequency cap must be a whole number of hours from 1 to ${FREQUENCY_CAP_MAX_HOURS}, or empty for off`,
};

/** `frequency_cap_hours` as both sides' settings take it: whole hours, or null (off); an empty field is off. */
export const frequencyCapHours = () =>
  yup
    .number()
    .transform((v, raw) => (raw === '' ? null : v))
    .typeError(timingMessages.frequencyCapHours)
    .integer(timingMessages.frequencyCapHours)
    .min(1, timingMessages.frequencyCapHours)
    .max(FREQUENCY_CAP_MAX_HOURS, timingMessages.frequencyCapHours)
    .nullable()
    .optional();

const hourMessage = (what: string) => `${what} must be a whole number from 0 to 23`;
const hour = (what: string) => yup.number().typeError(hourMessage(what)).integer(hourMessage(what)).min(0, hourMessage(what)).max(23, hourMessage(what));

/**
 * GET / PUT /api/settings/timing (svc-email): email's own quiet hours, read on each shopper's clock (off by
 * default; 22:00-08:00 when turned on), and the account's frequency cap, the same value as the SMS side's.
 */
export interface EmailTimingSettings {
  quiet_hours_enabled: boolean;
  quiet_start_hour: number;
  quiet_end_hour: number;
  frequency_cap_hours: number | null;
}

export const EMAIL_TIMING_DEFAULTS: EmailTimingSettings = Object.freeze({
  quiet_hours_enabled: false,
  quiet_start_hour: 22,
  quiet_end_hour: 8,
  frequency_cap_hours: null,
});

/** Fields left out keep their saved value. */
export const emailTimingSettingsSchema = yup.object({
  quiet_hours_enabled: yup.boolean().optional(),
  quiet_start_hour: hour('Quiet hours start').optional(),
  quiet_end_hour: hour('Quiet hours end').optional(),
  frequency_cap_hours: frequencyCapHours(),
});
export type EmailTimingSettingsInput = yup.InferType<typeof emailTimingSettingsSchema>;

/** What a campaign does when the shopper's cart changes while its sequence runs (packages/flow exitDecision). */
export const CART_CHANGE_RULES = ['continue', 'restart'] as const;
export type CartChangeRuleName = (typeof CART_CHANGE_RULES)[number];

/**
 * A campaign's exit settings, on both channels: `on_cart_change` ('continue', the default: the next step goes on;
 * 'restart': the sequence starts again from its first step) and `priority` (0-100, default 0; higher wins when a
 * person is in two campaigns).
 */
export interface CampaignExitSettings {
  on_cart_change: CartChangeRuleName;
  priority: number;
}

export const campaignExitFields = {
  on_cart_change: yup
    .string()
    .oneOf([...CART_CHANGE_RULES], 'When the cart changes must be continue or restart')
    .default('continue'),
  priority: yup
    .number()
    .typeError('Priority must be a whole number from 0 to 100')
    .integer('Priority must be a whole number from 0 to 100')
    .min(0, 'Priority must be a whole number from 0 to 100')
    .max(100, 'Priority must be a whole number from 0 to 100')
    .default(0),
};

/** The same fields where one left out keeps its stored value (the email campaign's PUT). */
export const campaignExitFieldsOptional = {
  on_cart_change: yup.string().oneOf([...CART_CHANGE_RULES], 'When the cart changes must be continue or restart').optional(),
  priority: campaignExitFields.priority.default(undefined).optional(),
};

/** An address as far as it says where a shopper lives (Shopify's / WooCommerce's / Stripe's country and state). */
export interface StoredAddressHint {
  country_code: string | null;
  province_code: string | null;
}

/**
 * What a sender said of where the shopper lives, kept on the contact (`zone_hints`) for quiet hours on the shopper's
 * own clock: a time zone it gave, the billing and shipping addresses' country and state, the shopper's locale. Each
 * field is short, checked text or null; the whole is null when the sender said nothing of it.
 */
export interface StoredZoneHints {
  timezone: string | null;
  billing_address: StoredAddressHint | null;
  shipping_address: StoredAddressHint | null;
  locale: string | null;
}

const CODE = /^[A-Za-z]{2}$/;
const PROVINCE = /^[A-Za-z0-9]{1,3}$/;
const LOCALE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8}){0,2}$/;
const ZONE = /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){0,2}$/;

const code = (v: unknown, pattern: RegExp): string | null => (typeof v === 'string' && v.length <= 40 && pattern.test(v.trim()) ? v.trim() : null);

function addressHint(v: unknown): StoredAddressHint | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const a = v as Record<string, unknown>;
  const country = code(a.country_code ?? a.country, CODE);
  if (!country) return null;
  return { country_code: country.toUpperCase(), province_code: code(a.province_code ?? a.state, PROVINCE)?.toUpperCase() ?? null };
}

/**
 * The zone hints of a delivery, from the fields senders use: `timezone` (the spec's formats, any sender that gives
 * one), `billing_address` / `shipping_address` with `country_code` + `province_code` (Shopify) or `country` + `state`
 * (WooCommerce, Stripe's `customer_details.address`), `customer_locale` / `locale`. Anything else is left out; null
 * when nothing is left.
 */
export function zoneHintsOf(input: {
  timezone?: unknown;
  billing_address?: unknown;
  shipping_address?: unknown;
  locale?: unknown;
}): StoredZoneHints | null {
  const hints: StoredZoneHints = {
    timezone: code(input.timezone, ZONE),
    billing_address: addressHint(input.billing_address),
    shipping_address: addressHint(input.shipping_address),
    locale: code(input.locale, LOCALE),
  };
  return Object.values(hints).some((v) => v !== null) ? hints : null;
}
