import Router from '@koa/router';
import { EMPTY_TWIML, type TwilioCallbackService } from './service';

/** Public: Twilio posts form-encoded callbacks here; the signature stands in for a signed-in user. */
export function twilioCallbackRouter(service: TwilioCallbackService): Router {
  const router = new Router();
  router.post('/api/twilio/webhooks', async (ctx) => {
    // service-kit reads every body as text and tries JSON; Twilio sends application/x-www-form-urlencoded.
    // fromEntries defines own properties, so a `__proto__` field stays a plain field.
    const params: Record<string, string> = Object.fromEntries(new URLSearchParams(ctx.request.rawBody ?? ''));
    await service.verify(ctx.get('x-twilio-signature') || undefined, ctx.querystring, params);
    await service.handle(params);
    ctx.type = 'text/xml';
    ctx.body = EMPTY_TWIML;
  });
  return router;
}
