import * as yup from 'yup';
import { DAY_MS, MAX_WINDOW_DAYS, type AttributionModel, type Channel } from './attribution';

/**
 * GET /api/revenue/summary (svc-email) and GET /api/sms/revenue/summary (svc-sms): recovered revenue over a date
 * range. `format=csv&table=…` answers one of the tables as CSV instead.
 */
export const REVENUE_TABLES = ['series', 'integrations', 'campaigns', 'templates', 'funnel'] as const;
export type RevenueTable = (typeof REVENUE_TABLES)[number];
export const REVENUE_DAY_CHOICES = [7, 30, 90] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const day = (label: string) =>
  yup
    .string()
    .matches(DATE, `${label} must be a date (YYYY-MM-DD)`)
    .test('date', `${label} must be a date (YYYY-MM-DD)`, (v) => {
      if (!v) return true;
      const d = new Date(`${v}T00:00:00Z`);
      // JavaScript reads 2026-02-30 as March 2: only a date that prints back the same is one.
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    })
    .optional();

const integrationIdField = yup
  .number()
  .typeError('integration_id must be a number')
  .integer('integration_id must be a number')
  .positive('integration_id must be a number')
  .transform((v: unknown, orig: unknown) => (orig === '' ? undefined : v))
  .optional();
const modelField = yup.string().oneOf(['last', 'first'], 'model must be one of: last, first').default('last');
const windowDaysField = yup
  .number()
  .typeError('window_days must be a number')
  .integer('window_days must be a whole number')
  .min(1, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`)
  .max(MAX_WINDOW_DAYS, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`)
  .optional();

export const revenueQuerySchema = yup.object({
  /** The first and last day (UTC) of the range; without them, the `days` days up to today. */
  from: day('from'),
  to: day('to'),
  days: yup.number().typeError('days must be a number').integer('days must be a whole number').min(1, 'days must be between 1 and 366').max(366, 'days must be between 1 and 366').default(30),
  integration_id: integrationIdField,
  model: modelField,
  window_days: windowDaysField,
  format: yup.string().oneOf(['json', 'csv'], 'format must be one of: json, csv').default('json'),
  table: yup.string().oneOf([...REVENUE_TABLES], `table must be one of: ${REVENUE_TABLES.join(', ')}`).default('series'),
});
export type RevenueQueryInput = yup.InferType<typeof revenueQuerySchema>;

export interface RevenueRange {
  from: Date;
  /** Exclusive: the start of the day after `to`. */
  until: Date;
}

/** The query's days as a half-open UTC range; a `from` after `to` is the caller's mistake, told as such. */
export function revenueRange(q: Pick<RevenueQueryInput, 'from' | 'to' | 'days'>, now = new Date()): RevenueRange | { error: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const to = q.to ? Date.parse(`${q.to}T00:00:00Z`) : today;
  const from = q.from ? Date.parse(`${q.from}T00:00:00Z`) : to - (q.days - 1) * DAY_MS;
  if (from > to) return { error: 'from must not be after to' };
  if ((to - from) / DAY_MS > 366) return { error: 'The range must not be longer than 366 days' };
  return { from: new Date(from), until: new Date(to + DAY_MS) };
}

/** Money of one currency; `null` currency: the sender gave an amount without one. */
export interface CurrencyAmounts {
  currency: string | null;
  recovered: number;
  organic: number;
}

export interface RevenueTotals {
  purchases: number;
  recovered: number;
  organic: number;
  by_channel: Record<Channel, number>;
  revenue: CurrencyAmounts[];
}

export interface RevenueDay {
  date: string;
  recovered: number;
  organic: number;
  email: number;
  sms: number;
  /** Per currency: revenue credited to email, to SMS, and organic. */
  revenue: { currency: string | null; email: number; sms: number; organic: number }[];
}

export interface RevenueIntegrationRow {
  funnel_id: string | null;
  integration_id: number | null;
  name: string;
  purchases: number;
  recovered: number;
  /** Contacts reminded in the range (either channel). */
  reminded: number;
  /** recovered / reminded, 0..1; null with nobody reminded. */
  recovery_rate: number | null;
  revenue: CurrencyAmounts[];
}

export interface RevenueCreditRow {
  channel: Channel;
  campaign_id: number | null;
  /** Null in the campaigns table. */
  template_id: number | null;
  step: number | null;
  recovered: number;
  /** Campaigns table: distinct contacts this campaign reminded in the range (per funnel, as integrations count them); null in the templates table. */
  reminded: number | null;
  /** Campaigns table: recovered / reminded (0..1; above 1 when purchases in the range were credited to reminders sent before it); null in the templates table or with nobody reminded. */
  recovery_rate: number | null;
  /** Recovered revenue per currency. */
  revenue: { currency: string | null; amount: number }[];
}

/**
 * The side's own contacts that came in during the range, and of them: those its channel really reminded (a
 * simulated, held, skipped or suppressed reminder is not one), those who clicked, and those who purchased after
 * that reminder. Each figure is a part of the one before (clicked aside), so the funnel never widens.
 */
export interface RevenueFunnel {
  contacts: number;
  reminded: number;
  /** Null where the provider does not report clicks (SMS). */
  clicked: number | null;
  purchased: number;
}

/** Purchases that only a simulated reminder (live sending off) preceded: what would have been credited, kept apart. */
export interface RevenueSimulated {
  recovered: number;
  by_channel: Record<Channel, number>;
  revenue: { currency: string | null; amount: number }[];
}

/** GET/PUT …/revenue/settings: the attribution window of one side. */
export interface RevenueSettings {
  window_days: number;
}
export const revenueSettingsSchema = yup.object({
  window_days: yup
    .number()
    .typeError('window_days must be a number')
    .required('window_days is required')
    .integer('window_days must be a whole number')
    .min(1, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`)
    .max(MAX_WINDOW_DAYS, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`),
});

export interface RevenueSummary {
  from: string;
  to: string;
  model: AttributionModel;
  window_days: number;
  totals: RevenueTotals;
  series: RevenueDay[];
  integrations: RevenueIntegrationRow[];
  campaigns: RevenueCreditRow[];
  /** Best first: the best-performing template/step is templates[0]. */
  templates: RevenueCreditRow[];
  funnel: RevenueFunnel;
  /** Never part of the figures above: purchases a simulated reminder would have been credited with. */
  simulated: RevenueSimulated;
  /** This side's reminders are only logged now (live sending off): the page says its reminders are simulated. */
  sending_simulated: boolean;
  /** The one channel the figures are limited to (SMS Statistics: `sms`); null: both channels. */
  channel: Channel | null;
}

function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : String(v);
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** One table of the summary as CSV: one row per (row, currency), so no money of two currencies is ever summed. */
export function revenueCsv(s: RevenueSummary, table: RevenueTable): string {
  if (table === 'series')
    return csv(
      ['date', 'recovered_purchases', 'organic_purchases', 'email_purchases', 'sms_purchases', 'currency', 'email_revenue', 'sms_revenue', 'organic_revenue'],
      s.series.flatMap((d) =>
        (d.revenue.length ? d.revenue : [null]).map((r) => [d.date, d.recovered, d.organic, d.email, d.sms, r?.currency ?? '', r?.email ?? 0, r?.sms ?? 0, r?.organic ?? 0]),
      ),
    );
  if (table === 'integrations')
    return csv(
      ['integration_id', 'name', 'funnel_id', 'purchases', 'recovered', 'reminded', 'recovery_rate', 'currency', 'recovered_revenue', 'organic_revenue'],
      s.integrations.flatMap((i) =>
        (i.revenue.length ? i.revenue : [null]).map((r) => [i.integration_id, i.name, i.funnel_id, i.purchases, i.recovered, i.reminded, i.recovery_rate, r?.currency ?? '', r?.recovered ?? 0, r?.organic ?? 0]),
      ),
    );
  if (table === 'funnel')
    return csv(['contacts', 'reminded', 'clicked', 'purchased'], [[s.funnel.contacts, s.funnel.reminded, s.funnel.clicked, s.funnel.purchased]]);
  if (table === 'campaigns')
    return csv(
      ['channel', 'campaign_id', 'recovered', 'reminded', 'recovery_rate', 'currency', 'revenue'],
      s.campaigns.flatMap((c) => (c.revenue.length ? c.revenue : [null]).map((r) => [c.channel, c.campaign_id, c.recovered, c.reminded, c.recovery_rate, r?.currency ?? '', r?.amount ?? 0])),
    );
  return csv(
    ['channel', 'campaign_id', 'template_id', 'step', 'recovered', 'currency', 'revenue'],
    s.templates.flatMap((c) => (c.revenue.length ? c.revenue : [null]).map((r) => [c.channel, c.campaign_id, c.template_id, c.step, c.recovered, r?.currency ?? '', r?.amount ?? 0])),
  );
}

/** The most rows one page of GET …/revenue/purchases answers. */
export const REVENUE_PURCHASES_MAX_LIMIT = 100;

/** GET …/revenue/purchases: the newest attributed purchases first, a page at a time (`before`: the last page's `next`). */
export const revenuePurchasesQuerySchema = yup.object({
  integration_id: integrationIdField,
  model: modelField,
  window_days: windowDaysField,
  limit: yup
    .number()
    .typeError('limit must be a number')
    .integer('limit must be a whole number')
    .min(1, `limit must be between 1 and ${REVENUE_PURCHASES_MAX_LIMIT}`)
    .max(REVENUE_PURCHASES_MAX_LIMIT, `limit must be between 1 and ${REVENUE_PURCHASES_MAX_LIMIT}`)
    .default(20),
  before: yup.string().max(1000, 'before must be a next value this list answered').optional(),
});
export type RevenuePurchasesQueryInput = yup.InferType<typeof revenuePurchasesQuerySchema>;

/** One attributed purchase: who bought, through which integration, for how much, and the reminder credited. */
export interface RevenuePurchaseRow {
  purchased_at: string;
  contact: {
    /** This side's contact number (its contact page), when this side holds the buyer; else null. */
    id: number | null;
    /** The sender's contact id the purchase named (null when it was matched by email or phone only). */
    contact_id: string | null;
    email: string | null;
    /** Digits only, as the ledger matches numbers. */
    phone: string | null;
  };
  /** The integration of the purchase's funnel on this side; null when this side has none for it. */
  integration: { id: number; name: string } | null;
  amount: number | null;
  currency: string | null;
  /** The reminder the purchase is credited to under the model and window asked for. */
  credited: {
    channel: Channel;
    campaign_id: number | null;
    template_id: number | null;
    step: number | null;
    variant: string | null;
    sent_at: string;
  };
  /** The checkout the sender says the shopper came back through (Stripe's `recovered_from`: the expired session). */
  recovered_from: string | null;
}

export interface RevenuePurchasesPage {
  purchases: RevenuePurchaseRow[];
  /** Pass as `before` for the page after this one; null when there is none. */
  next: string | null;
}
