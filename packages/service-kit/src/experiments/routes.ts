import Router from '@koa/router';
import { auditChange } from '../audit';
import { requireUser } from '../identity';
import { parseId } from '../validate';
import { resultsCsv } from './results';
import type { ExperimentsService } from './service';

/**
 * `${base}/:id/experiment` (GET, PUT) and `${base}/:id/results` (JSON, or `format=csv`: one row per variant); and
 * `overviewPath`: the side's incremental revenue over its campaigns with a holdout (the Dashboard's line).
 */
export function experimentsRouter(base: string, service: ExperimentsService, overviewPath: string): Router {
  const router = new Router();
  router.get(overviewPath, requireUser(), async (ctx) => {
    ctx.body = await service.overview();
  });
  router.use(base, requireUser());
  router.get(`${base}/:id/experiment`, async (ctx) => {
    ctx.body = await service.settings.get(parseId(ctx.params.id, 'campaign id'));
  });
  router.put(`${base}/:id/experiment`, async (ctx) => {
    const id = parseId(ctx.params.id, 'campaign id');
    const before = await service.settings.get(id);
    const after = await service.settings.put(id, ctx.request.body);
    service.forget(id);
    ctx.body = after;
    auditChange(ctx, before, after);
  });
  router.get(`${base}/:id/results`, async (ctx) => {
    const id = parseId(ctx.params.id, 'campaign id');
    const results = await service.results(id);
    if (ctx.query.format === 'csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="campaign-${id}-results.csv"`);
      ctx.body = resultsCsv(results);
      return;
    }
    ctx.body = results;
  });
  return router;
}
