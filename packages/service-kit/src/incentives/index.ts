export * from './config';
export * from './model';
export * from './pools';
export * from './giver';
export * from './steps';
export * from './step';
export * from './credentials';
export * from './redemptions';
export * from './recovery-link';
export * from './preview-code';
export * from './relayed-codes';
export * from './shop-code';
export { ShopifyCodeCreator, DISCOUNT_CODE_BASIC_CREATE, SHOPIFY_API_VERSION, basicCodeDiscountInput, throttleWaitMs } from './shopify/admin-api';
export { WooCommerceCouponCreator, couponBody } from './woocommerce/rest-api';
export { incentivesRouter } from './routes';

import type { Connection } from 'mongoose';
import type { Logger } from '../logger';
import { createSecretBox } from '../secret-box';
import { ShopCredentials } from './credentials';
import { IncentiveGiver, type IncentiveGiverDeps } from './giver';
import { incentiveModels, initIncentiveModels } from './model';
import { IncentivePools } from './pools';
import { IncentiveRedemptions } from './redemptions';
import { StepIncentives } from './steps';

/** A service's incentive parts over its database, wired once. */
export async function buildIncentives(conn: Connection, logger: Logger, opts: Pick<IncentiveGiverDeps, 'creatorFor' | 'now'> = {}) {
  await initIncentiveModels(conn);
  const models = incentiveModels(conn);
  const box = createSecretBox();
  const pools = new IncentivePools(models);
  return {
    models,
    pools,
    steps: new StepIncentives(models),
    credentials: new ShopCredentials(models, box),
    redemptions: IncentiveRedemptions.of(models),
    giver: new IncentiveGiver({ models, pools, box, logger, ...opts }),
  };
}
export type Incentives = Awaited<ReturnType<typeof buildIncentives>>;
