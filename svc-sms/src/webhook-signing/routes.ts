import Router from '@koa/router';
import { auditChange, requireAdmin, requireUser, validateBody } from '@act/service-kit';
import {
  webhookSigningSettingsSchema,
  type WebhookSigningSettings as SigningBody,
} from '@act/contracts/src/webhook-signing';
import type { WebhookSigningSettings } from './settings';

/** GET (staff) / PUT (admin) /api/sms/webhook-signing: "Require signed deliveries" for the SMS side's webhook. */
export function webhookSigningRouter(settings: WebhookSigningSettings): Router {
  const router = new Router();
  router.get('/api/sms/webhook-signing', requireUser(), async (ctx) => {
    const body: SigningBody = { require_signed: await settings.requireSigned() };
    ctx.body = body;
  });
  router.put('/api/sms/webhook-signing', requireAdmin(), async (ctx) => {
    const { require_signed } = await validateBody(ctx, webhookSigningSettingsSchema);
    const previous = await settings.requireSigned();
    const body: SigningBody = { require_signed: await settings.setRequireSigned(require_signed) };
    ctx.body = body;
    auditChange(ctx, { require_signed: previous }, body, { target_kind: 'setting', target_id: 'sms-webhook-signing' });
  });
  return router;
}
