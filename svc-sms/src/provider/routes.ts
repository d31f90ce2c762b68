import Router from '@koa/router';
import { requireAdmin, requireUser, validateBody } from '@act/service-kit';
import { twilioConfigSchema, twilioTestSmsSchema } from '@act/contracts/src/sms-api';
import type { ProviderService } from './service';

export function providerRouter(service: ProviderService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/twilio/config', async (ctx) => {
    ctx.body = await service.getConfig();
  });
  // Provider settings are an admin's, as Resend's are: a sender number or a tracking URL changes who gets what.
  router.post('/api/twilio/config', requireAdmin(), async (ctx) => {
    const input = await validateBody(ctx, twilioConfigSchema);
    ctx.body = { ...(await service.saveConfig(input)), message: 'Twilio configuration saved successfully' };
  });
  router.get('/api/twilio/messaging-services', async (ctx) => {
    ctx.body = await service.messagingServices();
  });
  router.post('/api/twilio/test-connection', async (ctx) => {
    const result = await service.testConnection();
    // A refusal by Twilio is a failed upstream call: 502, with `error` for the request client and the same text as `message`.
    if (!result.success) ctx.status = 502;
    ctx.body = result.success ? result : { ...result, error: result.message };
  });
  router.post('/api/twilio/test-sms', async (ctx) => {
    const input = await validateBody(ctx, twilioTestSmsSchema);
    ctx.body = await service.sendTest({ phone: input.test_phone, body: input.test_message });
  });
  return router;
}
