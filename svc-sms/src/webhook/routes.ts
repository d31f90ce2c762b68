import Router from '@koa/router';
import type { FunnelWebhookService } from './service';

/** Public (no signed-in user; the gateway's identity header is still required). */
export function webhookRouter(service: FunnelWebhookService): Router {
  const router = new Router();
  router.post('/api/sms/webhook', async (ctx) => {
    const result = await service.handle(ctx.request.rawBody ?? '', ctx.request.body, ctx.request.bodyError);
    ctx.status = result.status;
    ctx.body = result.body;
  });
  return router;
}
