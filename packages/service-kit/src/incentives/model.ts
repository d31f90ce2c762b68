import mongoose, { type Connection } from 'mongoose';
import { standInIndex } from '../standin-indexes';
import type { Incentive, IncentiveKind } from './config';

/**
 * An uploaded list of codes; its codes are rows of `incentive_codes`, each at a place (`seq`) in upload order. The
 * places are handed out in order by one counter: a claim moves `next_seq` on by one while `left` is above zero.
 */
export interface IncentivePoolDoc {
  _id: mongoose.Types.ObjectId;
  name: string;
  total: number;
  /** The place of the next code to give; absent on a pool uploaded before codes had places (claimed by owner instead). */
  next_seq?: number;
  /** Places not yet handed out: the pool's remaining count. */
  left?: number;
  created_at: Date;
}

/** One code of a pool: free while `owner` is null; taken once, by one (contact, step), across instances. */
export interface PoolCodeDoc {
  pool_id: string;
  /** Its place in the pool, 0 to total - 1 in upload order (absent on a pool uploaded before places). */
  seq?: number;
  code: string;
  /** `<contact_ref>:<step_key>` of whoever was given it. */
  owner: string | null;
  claimed_at: Date | null;
}

/**
 * The place in a pool that one owner was handed, written before its code is taken: a retry after a crash between the
 * two takes the code at the same place, and the owner never gets a second one.
 */
export interface PoolClaimDoc {
  pool_id: string;
  owner: string;
  seq: number;
  claimed_at: Date;
}

/** The incentive a step carries, by the step's key (`email-template:12`, `sms-template:4`). */
export interface StepIncentiveDoc {
  step_key: string;
  incentive: Incentive;
  updated_at: Date;
}

/**
 * What one (contact, step) was given. Written before a shop is asked to create a code (state `pending` with the code
 * it will be asked for), so a retried send asks for the same code and never creates a second one.
 */
export interface IncentiveGrantDoc {
  contact_ref: number;
  step_key: string;
  kind: IncentiveKind;
  integration_id: number | null;
  /** null: the shopper got no code (the pool was empty, the shop refused); `note` says why. */
  code: string | null;
  /** Upper case: redemptions are matched without regard to case, as shops do. */
  code_key: string | null;
  state: 'pending' | 'issued' | 'none';
  note: string | null;
  /** A fixed or pool code given on an integration of a Shopify store: its recovery link applies the code. */
  platform?: 'shopify';
  created_at: Date;
  issued_at: Date | null;
  redeemed_at: Date | null;
  /** The discount the purchase got from the code (minor units), and its currency. */
  discount_minor: number | null;
  currency: string | null;
  order_ref: string | null;
  /** The amount of the order that used the code (minor units, in `currency`). */
  order_minor?: number | null;
}

/** A shop's admin credentials for creating codes, per integration: sealed, never given back. */
export interface ShopCredentialsDoc {
  integration_id: number;
  platform: 'shopify' | 'woocommerce';
  /** Shopify: the shop's myshopify domain; WooCommerce: the store's base URL. */
  shop: string;
  /** Shopify's admin API access token, or WooCommerce's consumer key (sealed). */
  key_sealed: string;
  /** WooCommerce's consumer secret (sealed); null for Shopify. */
  secret_sealed: string | null;
  updated_at: Date;
}

const poolSchema = new mongoose.Schema<IncentivePoolDoc>(
  {
    name: { type: String, required: true },
    total: { type: Number, required: true },
    next_seq: { type: Number, default: undefined },
    left: { type: Number, default: undefined },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'incentive_pools' },
);

// The pools' list, newest first.
poolSchema.index({ created_at: -1 });

const codeSchema = new mongoose.Schema<PoolCodeDoc>(
  {
    pool_id: { type: String, required: true },
    seq: { type: Number, default: undefined },
    code: { type: String, required: true },
    owner: { type: String, default: null },
    claimed_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'incentive_codes' },
);
codeSchema.index({ pool_id: 1, code: 1 }, { unique: true });
// A claim takes the code at its place ({ pool_id, seq, owner: null }) and a retry reads it ({ pool_id, seq }). Partial:
// the codes of a pool uploaded before places have none.
codeSchema.index({ pool_id: 1, seq: 1 }, { unique: true, partialFilterExpression: { seq: { $exists: true } } });
standInIndex(codeSchema, { pool_id: 1, seq: 1, owner: 1 }, 'standin_pool_code_take');
// A pool uploaded before places: its claim ({ pool_id, owner: null }), a retry's look-up ({ pool_id, owner }) and its
// remaining count.
codeSchema.index({ pool_id: 1, owner: 1 });

const claimSchema = new mongoose.Schema<PoolClaimDoc>(
  {
    pool_id: { type: String, required: true },
    owner: { type: String, required: true },
    seq: { type: Number, required: true },
    claimed_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'incentive_pool_claims' },
);
claimSchema.index({ pool_id: 1, owner: 1 }, { unique: true });

const stepSchema = new mongoose.Schema<StepIncentiveDoc>(
  {
    step_key: { type: String, required: true },
    incentive: { type: mongoose.Schema.Types.Mixed, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'step_incentives' },
);
stepSchema.index({ step_key: 1 }, { unique: true });

export const GRANTS_COLLECTION = 'incentive_grants';

const grantSchema = new mongoose.Schema<IncentiveGrantDoc>(
  {
    contact_ref: { type: Number, required: true },
    step_key: { type: String, required: true },
    kind: { type: String, required: true },
    integration_id: { type: Number, default: null },
    code: { type: String, default: null },
    code_key: { type: String, default: null },
    state: { type: String, required: true },
    note: { type: String, default: null },
    platform: { type: String, default: undefined },
    created_at: { type: Date, required: true },
    issued_at: { type: Date, default: null },
    redeemed_at: { type: Date, default: null },
    discount_minor: { type: Number, default: null },
    currency: { type: String, default: null },
    order_ref: { type: String, default: null },
    order_minor: { type: Number, default: null },
  },
  { versionKey: false, collection: GRANTS_COLLECTION },
);
grantSchema.index({ contact_ref: 1, step_key: 1 }, { unique: true });
// A purchase's codes, matched to what its contact was given.
grantSchema.index({ contact_ref: 1, code_key: 1 });
// Revenue's per-step figures: the codes given ({ state: 'issued' }), grouped by step.
grantSchema.index({ state: 1, step_key: 1 });

const credentialsSchema = new mongoose.Schema<ShopCredentialsDoc>(
  {
    integration_id: { type: Number, required: true },
    platform: { type: String, required: true },
    shop: { type: String, required: true },
    key_sealed: { type: String, required: true },
    secret_sealed: { type: String, default: null },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'shop_credentials' },
);
credentialsSchema.index({ integration_id: 1 }, { unique: true });

function modelOf<T>(conn: Connection, name: string, schema: mongoose.Schema<T>): mongoose.Model<T> {
  return (conn.models[name] as mongoose.Model<T>) ?? conn.model<T>(name, schema);
}

export function incentiveModels(conn: Connection) {
  return {
    Pool: modelOf(conn, 'IncentivePool', poolSchema),
    Code: modelOf(conn, 'IncentivePoolCode', codeSchema),
    Claim: modelOf(conn, 'IncentivePoolClaim', claimSchema),
    Step: modelOf(conn, 'StepIncentive', stepSchema),
    Grant: modelOf(conn, 'IncentiveGrant', grantSchema),
    Credentials: modelOf(conn, 'ShopCredentials', credentialsSchema),
  };
}
export type IncentiveModels = ReturnType<typeof incentiveModels>;

export async function initIncentiveModels(conn: Connection): Promise<void> {
  const m = incentiveModels(conn);
  await Promise.all([m.Pool.init(), m.Code.init(), m.Claim.init(), m.Step.init(), m.Grant.init(), m.Credentials.init()]);
}
