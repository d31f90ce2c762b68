import Router from '@koa/router';
import * as yup from 'yup';
import { MAX_WINDOW_DAYS } from '@act/contracts/src/attribution';
import { revenueCsv, revenueQuerySchema, type RevenueTable } from '@act/contracts/src/revenue-api';
import { requireAdmin, requireUser } from '../identity';
import { validate, validateBody } from '../validate';
import type { RevenueService } from './service';

const settingsSchema = yup.object({
  window_days: yup
    .number()
    .typeError('window_days must be a number')
    .required('window_days is required')
    .integer('window_days must be a whole number')
    .min(1, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`)
    .max(MAX_WINDOW_DAYS, `window_days must be between 1 and ${MAX_WINDOW_DAYS}`),
});

/** `${base}/summary` (JSON, or `format=csv&table=…`) and `${base}/settings` (the attribution window). */
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
  router.get('/settings', requireUser(), async (ctx) => {
    ctx.body = { window_days: await service.windowDays() };
  });
  router.put('/settings', requireAdmin(), async (ctx) => {
    const { window_days } = await validateBody(ctx, settingsSchema);
    ctx.body = { window_days: await service.setWindowDays(window_days) };
  });
  return router;
}
