import Router from '@koa/router';
import type { Context } from 'koa';
import type { FunnelWebhookService } from './service';

/**
 * Public (no signed-in user; the gateway's identity header is still required). `/api/sms/webhook` matches the
 * active integration by funnel id (the spec's rule); `/api/sms/webhook/i/<key>` is one integration's own URL.
 */
export function webhookRouter(service: FunnelWebhookService): Router {
  const router = new Router();
  const handle = async (ctx: Context, key: string | null) => {
    const result = await service.handle({
      raw: ctx.request.rawBody ?? '',
      bytes: ctx.request.rawBytes ?? Buffer.alloc(0),
      body: ctx.request.body,
      parseError: ctx.request.bodyError,
      headers: ctx.headers,
      key,
    });
    ctx.status = result.status;
    ctx.body = result.body;
  };
  router.post('/api/sms/webhook', (ctx) => handle(ctx, null));
  router.post('/api/sms/webhook/i/:key', (ctx) => handle(ctx, ctx.params.key ?? ''));
  return router;
}
