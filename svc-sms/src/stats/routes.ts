import Router from '@koa/router';
import { requireUser } from '@act/service-kit';
import type { StatsService } from './service';

export function statsRouter(service: StatsService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-stats-simple', async (ctx) => {
    const { date_range, integration_id } = ctx.query;
    // Query values are plain strings here (an array from a repeated key is refused by the schema).
    ctx.body = await service.stats({ date_range, integration_id });
  });
  return router;
}
