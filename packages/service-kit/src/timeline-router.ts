import Router from '@koa/router';
import type { TimelineCursor, TimelinePart } from '@act/contracts/src/timeline';
import { requireUser } from './identity';
import { parseTimelineQuery } from './timeline';

/** What a side answers for its part of a person's timeline. */
export interface TimelinePartReader {
  part(ask: ReturnType<typeof parseTimelineQuery>['ask'], cursor: TimelineCursor | null, limit: number): Promise<TimelinePart>;
}

/**
 * A side's part of a person's timeline, for the gateway only: `/internal` is never proxied from `/api`, so the
 * browser asks the gateway (`GET /api/contacts/:id/timeline`, `/api/sms-contacts/:id/timeline`), which asks every
 * side and merges.
 */
export function timelinePartRouter(timeline: TimelinePartReader): Router {
  const router = new Router({ prefix: '/internal/timeline' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    const { ask, cursor, limit } = parseTimelineQuery(ctx.query);
    ctx.body = await timeline.part(ask, cursor, limit);
  });
  return router;
}
