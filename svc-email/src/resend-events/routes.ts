import Router from '@koa/router';
import type { ResendEventsService } from './service';

/** Public (Resend calls it; the gateway routes it without a session): `POST /api/resend/webhooks`. */
export function resendEventsRouter(service: ResendEventsService): Router {
  const router = new Router();
  router.post('/api/resend/webhooks', async (ctx) => {
    ctx.body = await service.handle(ctx.request.rawBody ?? '', ctx.headers);
  });
  return router;
}
