import Router from '@koa/router';
import { parseTimelineQuery, requireUser } from '@act/service-kit';
import type { SmsTimelineService } from './service';

/**
 * The SMS side's part of a person's timeline, for the gateway only: `/internal` is never proxied from `/api`, so
 * the browser asks the gateway (`GET /api/sms-contacts/:id/timeline`), which asks both sides and merges.
 */
export function timelineRouter(timeline: SmsTimelineService): Router {
  const router = new Router({ prefix: '/internal/timeline' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    const { ask, cursor, limit } = parseTimelineQuery(ctx.query);
    ctx.body = await timeline.part(ask, cursor, limit);
  });
  return router;
}
