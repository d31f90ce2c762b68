import Router from '@koa/router';
import { auditChange, auditSkip, requireAdmin, requireUser, validateBody } from '@act/service-kit';
import { twilioConfigSchema, twilioTestSmsSchema } from '@act/contracts/src/sms-api';
import type { ProviderService } from './service';

export function providerRouter(service: ProviderService): Router {
  const router = new Router();
  router.use(requireUser());
  // Every page whose work needs Twilio asks this: configured, and how many steps wait (ProviderStatusResponse).
  router.get('/api/sms/provider-status', async (ctx) => {
    ctx.body = await service.status();
  });
  router.get('/api/twilio/config', async (ctx) => {
    ctx.body = await service.getConfig();
  });
  // Provider settings are an admin's, as Resend's are: a sender number or a tracking URL changes who gets what.
  router.post('/api/twilio/config', requireAdmin(), async (ctx) => {
    const input = await validateBody(ctx, twilioConfigSchema);
    const before = await service.getConfig();
    const after = await service.saveConfig(input);
    ctx.body = { ...after, message: 'Twilio configuration saved successfully' };
    // Sender, tracking and the blackout window, each field that moved (the credentials are the environment's).
    auditChange(ctx, before, after, { ignore: ['configured'], target_kind: 'provider-settings', target_id: 'twilio' });
  });
  router.get('/api/twilio/messaging-services', async (ctx) => {
    ctx.body = await service.messagingServices();
  });
  router.post('/api/twilio/test-connection', async (ctx) => {
    const result = await service.testConnection();
    // A probe: it changes nothing, so it is no staff change (docs/privacy.md).
    auditSkip(ctx);
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
