import Router from '@koa/router';
import { requireUser } from '@act/service-kit';
import type { WebhookEventService } from './service';

export function webhookEventRouter(service: WebhookEventService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-webhook-events', async (ctx) => {
    ctx.body = await service.list();
  });
  return router;
}
