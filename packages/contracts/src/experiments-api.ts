import * as yup from 'yup';
import { CODE_MESSAGE, CODE_PATTERN, INCENTIVE_KINDS, MAX_INCENTIVE_DAYS, type Incentive } from './incentives-api';

/**
 * A campaign's experiment (both channels): a holdout share of its contacts that get no message on the channel, and
 * per step (a template) 2 to 4 variants with their share of the reminded traffic. GET/PUT
 * `/api/email/campaigns/{id}/experiment` and `/api/sms-campaigns/{id}/experiment`; results at `.../results`.
 */
export const MAX_HOLDOUT_PERCENT = 50;
export const MIN_STEP_VARIANTS = 2;
export const MAX_STEP_VARIANTS = 4;
export const DEFAULT_WINNER_MIN_RECIPIENTS = 500;
/** Shares are typed percentages: 33.33 + 33.33 + 33.34 is 100. */
const SHARE_SUM_TOLERANCE = 1e-6;

export interface ExperimentVariant {
  /** Short id shown and stored with each assignment (A, B, ...). */
  id: string;
  /** Share of the step's reminded contacts, in percent. */
  share: number;
  /** What the variant changes; null keeps the step's own. Email: subject and HTML; SMS: the message (subject unused). */
  subject: string | null;
  content: string | null;
  /** Delay before this step for contacts of the variant (hours on email, minutes on SMS, as the step's own delay). */
  delay: number | null;
  /**
   * The variant's own incentive, given to its contacts instead of the step's through the same incentive step (any kind
   * a step can carry: none, a fixed code, a unique code from a pool, a code created in Shopify or WooCommerce); null
   * keeps the step's. A plain code in a request is a fixed code.
   */
  incentive: Incentive | null;
}

export interface ExperimentStep {
  /** The step: the template's id. */
  template_id: number;
  variants: ExperimentVariant[];
}

/** A winner decided automatically: kept with the figures it was made on and when. */
export interface ExperimentWinner {
  template_id: number;
  variant: string;
  decided_at: string;
  /** Each variant's posterior probability that its revenue per recipient is the highest. */
  probabilities: Record<string, number>;
  based_on: { id: string; recipients: number; purchasers: number; revenue: number }[];
}

export interface CampaignExperiment {
  campaign_id: number;
  /** 0 to 50: the share of the campaign's contacts held out (no message on this channel), drawn once per contact. */
  holdout_percent: number;
  /** Decide a winner per step on its own (Bayesian, docs/revenue.md) once every variant has `winner_min_recipients`. */
  auto_winner: boolean;
  winner_min_recipients: number;
  steps: ExperimentStep[];
  winners: ExperimentWinner[];
}

export type CampaignExperimentRequest = Omit<CampaignExperiment, 'campaign_id' | 'winners'>;

const nullableText = (label: string, max: number) =>
  yup
    .string()
    .transform((v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v))
    .typeError(`${label} must be text`)
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .default(null);

/** What is wrong with a variant's incentive (null: nothing); the same rules as a step's. */
export function variantIncentiveProblem(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || Array.isArray(v)) return 'incentive must be a code or an incentive';
  const o = v as Record<string, unknown>;
  switch (o.kind) {
    case 'none':
      return null;
    case 'fixed':
      return typeof o.code === 'string' && CODE_PATTERN.test(o.code) ? null : CODE_MESSAGE;
    case 'pool':
      return typeof o.pool_id === 'string' && /^[0-9a-f]{24}$/.test(o.pool_id) ? null : 'Choose a code pool';
    case 'shopify':
    case 'woocommerce': {
      if (o.discount !== 'percentage' && o.discount !== 'amount') return 'Discount must be percentage or amount';
      if (typeof o.value !== 'number' || !Number.isFinite(o.value) || o.value <= 0) return 'Discount value must be a number above 0';
      if (o.discount === 'percentage' && o.value > 100) return 'A percentage discount is at most 100';
      if (typeof o.days !== 'number' || !Number.isInteger(o.days) || o.days < 1 || o.days > MAX_INCENTIVE_DAYS) return `Days must be a whole number from 1 to ${MAX_INCENTIVE_DAYS}`;
      return null;
    }
    default:
      return `Incentive kind must be one of ${INCENTIVE_KINDS.join(', ')}`;
  }
}

/** A variant's incentive as kept: a plain code is a fixed code; only the fields of its kind. */
export function variantIncentive(v: unknown): Incentive | null {
  if (typeof v === 'string') return v.trim() ? { kind: 'fixed', code: v.trim() } : null;
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown> & Incentive;
  switch (o.kind) {
    case 'none':
      return { kind: 'none' };
    case 'fixed':
      return { kind: 'fixed', code: String(o.code).trim() };
    case 'pool':
      return { kind: 'pool', pool_id: o.pool_id };
    case 'shopify':
    case 'woocommerce':
      return { kind: o.kind, discount: o.discount, value: o.value, days: o.days };
    default:
      return null;
  }
}

const variantIncentiveSchema = yup
  .mixed<Incentive>()
  .transform((v: unknown) => (typeof v === 'string' ? (v.trim() ? { kind: 'fixed', code: v.trim() } : null) : v))
  .nullable()
  .default(null)
  // For the API document (yup.mixed() has no JSON type of its own): what the test below accepts.
  .meta({
    jsonSchema: {
      type: ['null', 'string', 'object'],
      anyOf: [
        { type: 'null' },
        { type: 'string', description: 'A fixed code' },
        {
          type: 'object',
          required: ['kind'],
          properties: {
            kind: { enum: [...INCENTIVE_KINDS] },
            code: { type: 'string' },
            pool_id: { type: 'string' },
            discount: { enum: ['percentage', 'amount'] },
            value: { type: 'number' },
            days: { type: 'integer', minimum: 1, maximum: MAX_INCENTIVE_DAYS },
          },
        },
      ],
    },
  })
  .test('incentive', (v, ctx) => {
    const problem = variantIncentiveProblem(v);
    return problem ? ctx.createError({ message: problem }) : true;
  });

const variantSchema = yup.object({
  id: yup
    .string()
    .typeError('variant id must be text')
    .trim()
    .required('Every variant needs an id')
    .max(20, 'A variant id must be at most 20 characters')
    .matches(/^[A-Za-z0-9_-]+$/, 'A variant id may use letters, digits, - and _'),
  share: yup.number().typeError('share must be a number').required('Every variant needs a share').min(0.01, 'A share must be above 0').max(100, 'A share must be at most 100'),
  subject: nullableText('subject', 500),
  content: nullableText('content', 200_000),
  delay: yup.number().typeError('delay must be a number').integer('delay must be a whole number').min(0, 'delay must be 0 or more').max(100_000, 'delay is too long').nullable().default(null),
  incentive: variantIncentiveSchema,
});

const stepSchema = yup.object({
  template_id: yup.number().typeError('template_id must be a number').integer('template_id must be a number').positive('template_id must be a number').required('template_id is required'),
  variants: yup
    .array(variantSchema)
    .required('variants are required')
    .min(MIN_STEP_VARIANTS, `A step has ${MIN_STEP_VARIANTS} to ${MAX_STEP_VARIANTS} variants`)
    .max(MAX_STEP_VARIANTS, `A step has ${MIN_STEP_VARIANTS} to ${MAX_STEP_VARIANTS} variants`)
    .test('shares', 'Variant shares must add up to 100', (vs) => !vs || Math.abs(vs.reduce((s, v) => s + (Number(v?.share) || 0), 0) - 100) <= SHARE_SUM_TOLERANCE)
    .test('ids', 'Variant ids must differ within a step', (vs) => !vs || new Set(vs.map((v) => v?.id)).size === vs.length),
});

export const campaignExperimentSchema = yup.object({
  holdout_percent: yup
    .number()
    .typeError('holdout_percent must be a number')
    .min(0, `holdout_percent must be from 0 to ${MAX_HOLDOUT_PERCENT}`)
    .max(MAX_HOLDOUT_PERCENT, `holdout_percent must be from 0 to ${MAX_HOLDOUT_PERCENT}`)
    .default(0),
  auto_winner: yup.boolean().typeError('auto_winner must be true or false').default(false),
  winner_min_recipients: yup
    .number()
    .typeError('winner_min_recipients must be a number')
    .integer('winner_min_recipients must be a whole number')
    .min(2, 'winner_min_recipients must be at least 2')
    .max(10_000_000, 'winner_min_recipients is too large')
    .default(DEFAULT_WINNER_MIN_RECIPIENTS),
  steps: yup
    .array(stepSchema)
    .default([])
    .test('steps', 'A step appears twice', (ss) => !ss || new Set(ss.map((s) => s?.template_id)).size === ss.length),
});

/** 95% interval: estimate, lower, upper. */
export interface ResultInterval {
  estimate: number;
  lower: number;
  upper: number;
}

/** One group's figures (a variant of a step, or the holdout, or all reminded contacts). */
export interface GroupResult {
  /** Variant id; `holdout` for the control group; `reminded` for all reminded contacts of the campaign. */
  id: string;
  /** Contacts the group reached (holdout: contacts held out). */
  recipients: number;
  /** Messages the provider reported delivered; null where the channel has no such data. */
  delivered: number | null;
  clicked: number | null;
  /** Contacts who bought within the attribution window after the group's touch (holdout: after being held out). */
  purchasers: number;
  /** In `currency`. */
  revenue: number;
  delivery_rate: ResultInterval | null;
  click_rate: ResultInterval | null;
  /** Null below the minimum sample (100 recipients and 10 purchasers). */
  conversion_rate: ResultInterval | null;
  revenue_per_recipient: ResultInterval | null;
  /** Below the minimum sample: how many more recipients at the current rate (null: no purchase yet). */
  more_recipients_needed: number | null;
  enough_data: boolean;
}

export interface StepResult {
  template_id: number;
  step: number | null;
  variants: GroupResult[];
  /** The automatic decision when made; otherwise who leads and how many more recipients per variant are needed. */
  winner: ExperimentWinner | null;
  leader: string | null;
  probabilities: Record<string, number> | null;
  more_recipients_per_variant: number | null;
}

export type IncrementalResult =
  | {
      status: 'ok';
      conversion_lift: ResultInterval;
      revenue_per_contact_lift: ResultInterval;
      incremental_revenue: ResultInterval;
      reminded_contacts: number;
    }
  | {
      status: 'not_enough_data';
      /** More contacts each group needs (null: no purchase yet in that group). */
      reminded_more_needed: number | null;
      holdout_more_needed: number | null;
    };

export interface CampaignResults {
  campaign_id: number;
  channel: 'email' | 'sms';
  window_days: number;
  /** Revenue figures count purchases in this currency (the campaign's most common); null before any purchase. */
  currency: string | null;
  holdout_percent: number;
  reminded: GroupResult;
  holdout: GroupResult;
  incremental: IncrementalResult;
  steps: StepResult[];
}

/** One currency's incremental revenue over every campaign of a side that holds out contacts (the Dashboard's line). */
export type IncrementalTotal =
  | { currency: string | null; status: 'ok'; campaigns: number; incremental_revenue: ResultInterval }
  /** Some campaign of this currency is below the minimum sample: the most recipients one of its groups still needs. */
  | { currency: string | null; status: 'not_enough_data'; campaigns: number; more_recipients_needed: number | null };

/** GET /api/revenue/incremental (email side) and /api/sms/revenue/incremental. */
export interface IncrementalOverview {
  channel: 'email' | 'sms';
  /** Campaigns with a holdout; none: no line to show. */
  totals: IncrementalTotal[];
}
