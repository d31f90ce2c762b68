import Router from '@koa/router';
import type { Context } from 'koa';
import { BadRequestError } from '../errors';
import { requireAdmin, requireUser } from '../identity';
import { parseId } from '../validate';
import { auditChange } from '../audit';
import { parseIncentive } from './config';
import type { ShopCredentials } from './credentials';
import type { IncentivePools } from './pools';
import type { IncentiveRedemptions } from './redemptions';
import type { StepIncentives } from './steps';

function body(ctx: Context): Record<string, unknown> {
  const b = ctx.request.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new BadRequestError('Body must be a JSON object');
  return b as Record<string, unknown>;
}

/**
 * A channel's incentive API under its prefix (`/api/email`, `/api/sms`): code pools (upload as CSV text, remaining
 * counts), a template's incentive, an integration's shop credentials (write-only, admin), and the per-step redemptions.
 */
export function incentivesRouter(
  prefix: string,
  channel: 'email' | 'sms',
  deps: { pools: IncentivePools; steps: StepIncentives; credentials: ShopCredentials; redemptions: IncentiveRedemptions; allowHttpShops?: boolean },
): Router {
  const router = new Router({ prefix });
  router.use(requireUser());

  router.get('/incentive-pools', async (ctx) => {
    ctx.body = await deps.pools.list();
  });
  router.post('/incentive-pools', async (ctx) => {
    const b = body(ctx);
    if (typeof b.csv !== 'string') throw new BadRequestError('csv is required (the file\'s text)');
    const pool = await deps.pools.create(typeof b.name === 'string' ? b.name : '', b.csv);
    ctx.status = 201;
    ctx.body = pool;
    // The pool's name and size, not its codes.
    auditChange(ctx, null, { name: pool.name, total: pool.total });
  });
  router.get('/incentive-pools/:id', async (ctx) => {
    ctx.body = await deps.pools.get(ctx.params.id!);
  });

  router.get('/templates/:id/incentive', async (ctx) => {
    const key = `${channel}-template:${parseId(ctx.params.id, 'template id')}`;
    ctx.body = await deps.steps.get(key);
  });
  router.put('/templates/:id/incentive', async (ctx) => {
    const key = `${channel}-template:${parseId(ctx.params.id, 'template id')}`;
    const incentive = parseIncentive(ctx.request.body);
    if (incentive.kind === 'pool') await deps.pools.get(incentive.pool_id);
    const before = await deps.steps.get(key);
    ctx.body = await deps.steps.set(key, incentive);
    auditChange(ctx, before, incentive);
  });

  router.get('/integrations/:id/shop', async (ctx) => {
    ctx.body = await deps.credentials.status(parseId(ctx.params.id, 'integration id'));
  });
  router.put('/integrations/:id/shop', requireAdmin(), async (ctx) => {
    const id = parseId(ctx.params.id, 'integration id');
    const before = await deps.credentials.status(id);
    const after = await deps.credentials.set(id, body(ctx), { allowHttp: deps.allowHttpShops });
    ctx.body = after;
    // Sent credentials are a change (set or rotated) whatever the status shows; recorded as [set] / [changed], never the values.
    auditChange(ctx, before, after, {
      secrets: { key: { before: before.has_key, after: true }, ...(after.platform === 'woocommerce' ? { secret: { before: before.has_secret, after: true } } : {}) },
    });
  });
  router.delete('/integrations/:id/shop', requireAdmin(), async (ctx) => {
    const id = parseId(ctx.params.id, 'integration id');
    const before = await deps.credentials.status(id);
    const after = await deps.credentials.clear(id);
    ctx.body = after;
    auditChange(ctx, before, after, { secrets: { key: { before: before.has_key, after: false }, secret: { before: before.has_secret, after: false } } });
  });

  router.get('/incentive-redemptions', async (ctx) => {
    ctx.body = await deps.redemptions.perStep();
  });
  return router;
}
