import Router from '@koa/router';
import type { Context } from 'koa';
import { auditChange, currentUser, parseId, readSigningPatch, requireCommandBody, requireUser, validateOptionalBody } from '@act/service-kit';
import { testDeliveryRequestSchema } from '@act/contracts/src/webhook-signing';
import type { SmsIntegration } from '@act/contracts/src/sms-api';
import type { IntegrationService } from './service';
import { jsonObject } from '../http';

/** An integration as its change summary compares it: the pinned sender as a field; whether a secret is set is `webhook_secret`'s. */
function auditState({ signing, ...rest }: SmsIntegration): Record<string, unknown> {
  return { ...rest, webhook_source: signing.source, send_without_consent: signing.send_without_consent === true };
}

/** Changes that weaken signing are an admin's (IntegrationService.guardSigning). */
const actorOf = (ctx: Context) => ({ admin: currentUser(ctx)?.role === 'admin' });

export function integrationRouter(service: IntegrationService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-webhook-integrations', async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/sms-webhook-integrations', async (ctx) => {
    ctx.status = 201;
    ctx.body = await service.create(jsonObject(ctx), actorOf(ctx));
  });
  router.patch('/api/sms-webhook-integrations/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const signing = await readSigningPatch(ctx);
    const before = await service.get(id);
    const after = await service.update(id, jsonObject(ctx), signing, actorOf(ctx));
    ctx.body = after;
    // The secret is write-only (the answers say only whether one is set): sending one is a change (set, rotated, removed).
    const secrets = {
      ...(signing?.webhook_secret !== undefined
        ? { webhook_secret: { before: before.signing.has_secret, after: after.signing.has_secret } }
        : {}),
      ...(signing?.sender_api_key !== undefined
        ? { sender_api_key: { before: before.signing.has_api_key === true, after: after.signing.has_api_key === true } }
        : {}),
    };
    auditChange(ctx, auditState(before), auditState(after), { secrets: Object.keys(secrets).length ? secrets : undefined });
  });
  // Before the `:id` routes. Any signed-in user (their own samples), audited when something went.
  router.post('/api/sms-webhook-integrations/clear-test-deliveries', async (ctx) => {
    await requireCommandBody(ctx);
    const cleared = await service.clearTestDeliveries();
    ctx.body = { success: true, message: `Removed ${cleared.contacts} test delivery contact(s) and ${cleared.logs} SMS log(s)`, cleared: { contacts: cleared.contacts, sms_logs: cleared.logs } };
    auditChange(ctx, { contacts: cleared.contacts, sms_logs: cleared.logs }, { contacts: 0, sms_logs: 0 }, { target_kind: 'test-deliveries', target_id: null });
  });
  router.post('/api/sms-webhook-integrations/:id/test-delivery', async (ctx) => {
    const id = parseId(ctx.params.id);
    const { source } = await validateOptionalBody(ctx, testDeliveryRequestSchema);
    ctx.body = await service.testDelivery(id, source);
  });
  router.delete('/api/sms-webhook-integrations/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await service.get(id);
    await service.remove(id, actorOf(ctx));
    ctx.body = { success: true, message: 'SMS webhook integration deleted successfully' };
    auditChange(ctx, auditState(before), null);
  });
  return router;
}
