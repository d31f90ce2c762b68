import Router from '@koa/router';
import { deliveryFilter, requireUser } from '@act/service-kit';
import { SMS_WEBHOOK_EVENT_TYPES } from '@act/contracts/src/sms-api';
import { EVENT_LIST_OPTIONS, type WebhookEventPageService } from './service';
import { oneOf, parseSmsPageQuery } from '../paging';

/**
 * GET /api/sms-webhook-events with `?page=` (pageSize, search, type): one page for the screen. Mounted before
 * `webhook-events/routes.ts`, to which the plain form (the spec's list) falls through.
 */
export function webhookEventPageRouter(service: WebhookEventPageService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-webhook-events', async (ctx, next) => {
    const q = parseSmsPageQuery(ctx.query, EVENT_LIST_OPTIONS, ['type', 'source', 'verification', 'outcome']);
    if (!q) return next();
    ctx.body = await service.page(q, oneOf(ctx.query.type, 'type', SMS_WEBHOOK_EVENT_TYPES), deliveryFilter(ctx.query));
  });
  return router;
}
