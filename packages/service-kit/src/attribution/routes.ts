import Router from '@koa/router';
import { revenueCsv, revenuePurchasesQuerySchema, revenueQuerySchema, revenueSettingsSchema, type RevenueTable } from '@act/contracts/src/revenue-api';
import { requireAdmin, requireUser } from '../identity';
import { validate, validateBody } from '../validate';
import type { RevenueService } from './service';

/**
 * `${base}/summary` (JSON, or `format=csv&table=…`), `${base}/purchases` (the newest attributed purchases, paged) and
 * `${base}/settings` (the attribution window).
 */
export function revenueRouter(base: string, service: RevenueService): Router {
  const router = new Router({ prefix: base });
  router.get('/summary', requireUser(), async (ctx) => {
    const q = await validate(revenueQuerySchema, ctx.query);
    const summary = await service.summary(q);
    if (q.format === 'csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="revenue-${q.table}-${summary.from}-${summary.to}.csv"`);
      ctx.body = revenueCsv(summary, q.table as RevenueTable);
      return;
    }
    ctx.body = summary;
  });
  router.get('/purchases', requireUser(), async (ctx) => {
    ctx.body = await service.recentPurchases(await validate(revenuePurchasesQuerySchema, ctx.query));
  });
  router.get('/settings', requireUser(), async (ctx) => {
    ctx.body = { window_days: await service.windowDays() };
  });
  router.put('/settings', requireAdmin(), async (ctx) => {
    const { window_days } = await validateBody(ctx, revenueSettingsSchema);
    ctx.body = { window_days: await service.setWindowDays(window_days) };
  });
  return router;
}
