import Router from '@koa/router';
import { deliveryFilter, parseListQuery, requireUser } from '@act/service-kit';
import { WEBHOOK_EVENT_LIST_OPTIONS, type WebhookEventsService } from './service';

export function webhookEventsRouter(events: WebhookEventsService): Router {
  const router = new Router({ prefix: '/api/webhook-events' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await events.list(parseListQuery(ctx.query, WEBHOOK_EVENT_LIST_OPTIONS), deliveryFilter(ctx.query));
  });
  return router;
}
