import Router from '@koa/router';
import type { Context } from 'koa';
import type { WebhookService } from './service';

/**
 * Public (no signed-in user): senders call it through the gateway. `/api/webhook` matches the integration by the
 * delivery's funnel id (the spec's rule); `/api/webhook/i/<key>` is one integration's own URL.
 */
export function webhookRouter(webhook: WebhookService): Router {
  const router = new Router();
  const handle = async (ctx: Context, key: string | null) => {
    const answer = await webhook.handle({
      raw: ctx.request.rawBody ?? '',
      bytes: ctx.request.rawBytes ?? Buffer.alloc(0),
      body: ctx.request.body,
      bodyError: ctx.request.bodyError,
      headers: ctx.headers,
      key,
    });
    ctx.body = answer.body;
  };
  router.post('/api/webhook', (ctx) => handle(ctx, null));
  router.post('/api/webhook/i/:key', (ctx) => handle(ctx, ctx.params.key ?? ''));
  return router;
}
