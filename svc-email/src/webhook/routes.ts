import Router from '@koa/router';
import type { WebhookService } from './service';

/** Public (no signed-in user): the funnel builder calls it through the gateway. */
export function webhookRouter(webhook: WebhookService): Router {
  const router = new Router();
  router.post('/api/webhook', async (ctx) => {
    ctx.body = await webhook.handle(ctx.request.rawBody ?? '', ctx.request.body, ctx.request.bodyError);
  });
  return router;
}
