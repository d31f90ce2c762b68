import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger';
import type { SecretBox } from '../secret-box';
import type { Incentive } from './config';
import type { IncentiveGrantDoc, IncentiveModels, ShopCredentialsDoc } from './model';
import type { IncentivePools } from './pools';
import type { ShopCodeCreator } from './shop-code';
import { ShopifyCodeCreator } from './shopify/admin-api';
import { WooCommerceCouponCreator } from './woocommerce/rest-api';

/** One (contact, step) about to be sent, and the incentive its step carries. */
export interface IncentiveTarget {
  contact_ref: number;
  step_key: string;
  integration_id: number | null;
  incentive: Incentive;
}

/**
 * code: the shopper's code (null: none). note: why there is none, for the send's log. retry: the shop could not
 * create the code just now; the send waits and is tried again (with the same code: the grant holds it).
 */
export interface IncentiveResult {
  code: string | null;
  note: string | null;
  retry?: boolean;
  /** The shop the code was made in: the recovery link applies it there (Shopify). */
  platform?: 'shopify' | 'woocommerce';
}

export const NO_CODE: IncentiveResult = { code: null, note: null };

const EMPTY_POOL_NOTE = 'sent without a code: the code pool is empty';

/** A grant to write: the target, its code (null: none) and why none. */
interface GrantWrite {
  t: IncentiveTarget;
  code: string | null;
  state: IncentiveGrantDoc['state'];
  note: string | null;
  shop: { platform?: 'shopify' };
}

/** The owner of a pool code: one per (contact, step). */
export const ownerKey = (t: Pick<IncentiveTarget, 'contact_ref' | 'step_key'>) => `${t.contact_ref}:${t.step_key}`;

/** A code nobody guesses: a prefix the shop owner recognises and 10 characters of base32. */
export function newShopCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(10);
  return `CART-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export interface IncentiveGiverDeps {
  models: IncentiveModels;
  pools: IncentivePools;
  box: SecretBox;
  logger: Logger;
  /** The shop adapters (tests give fakes' fetch through these). */
  creatorFor?: (c: ShopCredentialsDoc, key: string, secret: string | null) => ShopCodeCreator;
  now?: () => Date;
}

function defaultCreator(c: ShopCredentialsDoc, key: string, secret: string | null): ShopCodeCreator {
  return c.platform === 'shopify' ? new ShopifyCodeCreator(c.shop, key) : new WooCommerceCouponCreator(c.shop, key, secret ?? '');
}

/**
 * Gives each (contact, step) its code, once: what was given is kept as a grant, and a retried send gets the same code.
 * A pool's code is taken by one atomic update; a shop's code is written as a pending grant before the shop is asked,
 * so an answer lost to a timeout or a 5xx is asked again for the same code (the shop's "already exists" then counts
 * as created), never a second one.
 */
export class IncentiveGiver {
  private readonly now: () => Date;
  constructor(private readonly deps: IncentiveGiverDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A burst's codes: fixed and shop codes one by one; a pool's codes for every target of the burst without one yet
   * claimed together (`claimMany`: five round trips for the burst, not six for each send) and their grants
   * written in one bulk write.
   */
  async give(targets: IncentiveTarget[]): Promise<IncentiveResult[]> {
    const shopify = await this.shopifyIntegrations(targets);
    const shopOf = (t: IncentiveTarget) => (t.integration_id !== null && shopify.has(t.integration_id) ? { platform: 'shopify' as const } : {});
    const results: IncentiveResult[] = new Array(targets.length);
    const byPool = new Map<string, number[]>();
    await Promise.all(
      targets.map(async (t, i) => {
        const inc = t.incentive;
        if (inc.kind !== 'pool') {
          results[i] = await this.giveOne(t, inc, shopOf(t));
          return;
        }
        const grant = await this.grantOf(t);
        if (grant?.state === 'issued' && grant.code) results[i] = { code: grant.code, note: null, ...shopOf(t) };
        else byPool.set(inc.pool_id, [...(byPool.get(inc.pool_id) ?? []), i]);
      }),
    );
    for (const [poolId, at] of byPool) {
      const codes = await this.deps.pools.claimMany(poolId, at.map((i) => ownerKey(targets[i]!)), this.now());
      const given: GrantWrite[] = at.map((i) => {
        const t = targets[i]!;
        const code = codes.get(ownerKey(t)) ?? null;
        return code ? { t, code, state: 'issued', note: null, shop: shopOf(t) } : { t, code: null, state: 'none', note: EMPTY_POOL_NOTE, shop: {} };
      });
      await this.recordMany(given);
      given.forEach((g, k) => (results[at[k]!] = { code: g.code, note: g.note, ...g.shop }));
    }
    return results;
  }

  /**
   * What this (contact, step) was given, by its exact key: one look-up per send, served by the unique index on
   * MongoDB and on the stand-in alike (a batch's `$in` on the contact alone had the stand-in read every grant).
   */
  private async grantOf(t: IncentiveTarget): Promise<IncentiveGrantDoc | null> {
    const g = await this.deps.models.Grant.collection.findOne({ contact_ref: t.contact_ref, step_key: t.step_key }, { projection: { _id: 0 } });
    return g as unknown as IncentiveGrantDoc | null;
  }

  /**
   * The integrations that hold Shopify credentials, among those of fixed and pool codes: their shop is a Shopify
   * store, whose `/discount/CODE` link applies any of its codes, so a code the operator uploaded or typed goes into
   * the recovery link as a created one does. One read per batch.
   */
  private async shopifyIntegrations(targets: IncentiveTarget[]): Promise<Set<number>> {
    const ids = [...new Set(targets.filter((t) => (t.incentive.kind === 'fixed' || t.incentive.kind === 'pool') && t.integration_id !== null).map((t) => t.integration_id!))];
    if (ids.length === 0) return new Set();
    const rows = await this.deps.models.Credentials.collection.find({ integration_id: { $in: ids }, platform: 'shopify' }, { projection: { _id: 0, integration_id: 1 } }).toArray();
    return new Set(rows.map((r) => r.integration_id as number));
  }

  /** The code this (contact, step) was given, and the shop it was made in (null: none given). */
  async given(contactRef: number, stepKey: string): Promise<{ code: string; platform: 'shopify' | 'woocommerce' | null } | null> {
    const g = await this.deps.models.Grant.collection.findOne({ contact_ref: contactRef, step_key: stepKey }, { projection: { _id: 0, code: 1, kind: 1, state: 1, platform: 1 } });
    if (!g || g.state !== 'issued' || !g.code) return null;
    return { code: g.code as string, platform: g.kind === 'shopify' || g.kind === 'woocommerce' ? g.kind : g.platform === 'shopify' ? 'shopify' : null };
  }

  /** A code that is not a pool's: none, the step's fixed code, or one made in the shop. */
  private async giveOne(t: IncentiveTarget, inc: Exclude<Incentive, { kind: 'pool' }>, shop: { platform?: 'shopify' }): Promise<IncentiveResult> {
    if (inc.kind === 'none') return NO_CODE;
    if (inc.kind === 'fixed') {
      await this.record(t, inc.code, 'issued', null, shop);
      return { code: inc.code, note: null, ...shop };
    }
    const grant = await this.grantOf(t);
    if (grant?.state === 'issued' && grant.code) return { code: grant.code, note: null, platform: inc.kind };
    return this.fromShop(t, inc, grant);
  }

  private async fromShop(
    t: IncentiveTarget,
    inc: Extract<Incentive, { kind: 'shopify' | 'woocommerce' }>,
    grant: IncentiveGrantDoc | null,
  ): Promise<IncentiveResult> {
    const name = inc.kind === 'shopify' ? 'Shopify' : 'WooCommerce';
    const creds = t.integration_id === null
      ? null
      : await this.deps.models.Credentials.findOne({ integration_id: t.integration_id }).lean<ShopCredentialsDoc>();
    const key = creds && creds.platform === inc.kind ? this.deps.box.open(creds.key_sealed) : null;
    if (!creds || creds.platform !== inc.kind || !key) {
      const note = `sent without a code: the integration holds no ${name} credentials`;
      await this.record(t, null, 'none', note);
      return { code: null, note };
    }
    const secret = creds.secret_sealed ? this.deps.box.open(creds.secret_sealed) : null;
    // The intent first: whatever happens to the call, a retry asks for this same code.
    let code = grant?.state === 'pending' ? grant.code : null;
    if (!code) {
      code = newShopCode();
      await this.record(t, code, 'pending', null);
    }
    const creator = (this.deps.creatorFor ?? defaultCreator)(creds, key, secret);
    const result = await creator.create({ code, title: `Cart reminder ${code}`, now: this.now(), discount: inc.discount, value: inc.value, days: inc.days });
    if (result.ok === 'created') {
      await this.record(t, code, 'issued', null);
      return { code, note: null, platform: inc.kind };
    }
    if (result.ok === 'retry') {
      this.deps.logger.warn({ contact: t.contact_ref, step: t.step_key, err: result.message }, 'shop code not created yet: the send waits');
      return { code: null, note: result.message, retry: true };
    }
    const note = `sent without a code: ${result.message}`;
    await this.record(t, null, 'none', note);
    return { code: null, note };
  }

  private async record(t: IncentiveTarget, code: string | null, state: IncentiveGrantDoc['state'], note: string | null, shop: { platform?: 'shopify' } = {}): Promise<void> {
    const { filter, update } = this.grantWrite({ t, code, state, note, shop });
    await this.deps.models.Grant.collection.updateOne(filter, update, { upsert: true });
  }

  private async recordMany(items: GrantWrite[]): Promise<void> {
    if (items.length === 0) return;
    await this.deps.models.Grant.collection.bulkWrite(
      items.map((g) => ({ updateOne: { ...this.grantWrite(g), upsert: true } })),
      { ordered: false },
    );
  }

  /** The grant of a (contact, step): what it was given, upserted by its exact key. */
  private grantWrite({ t, code, state, note, shop }: GrantWrite) {
    const at = this.now();
    return {
      filter: { contact_ref: t.contact_ref, step_key: t.step_key },
      update: {
        $set: { kind: t.incentive.kind, integration_id: t.integration_id, code, code_key: code?.toUpperCase() ?? null, state, note, ...shop, ...(state === 'issued' ? { issued_at: at } : {}) },
        $setOnInsert: { created_at: at, redeemed_at: null, discount_minor: null, currency: null, order_ref: null, ...(state === 'issued' ? {} : { issued_at: null }) },
      },
    };
  }
}
