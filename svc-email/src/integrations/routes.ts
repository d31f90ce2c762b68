import Router from '@koa/router';
import type { Context } from 'koa';
import {
  auditChange,
  currentUser,
  parseId,
  readSigningPatch,
  requireAdminInProduction,
  requireCommandBody,
  requireUser,
  validateBody,
  validateOptionalBody,
} from '@act/service-kit';
import { integrationPatchRequestSchema, integrationRequestSchema, type WebhookIntegration } from '@act/contracts/src/email-api';
import { testDeliveryRequestSchema, type IntegrationSigning, type IntegrationSigningPatch } from '@act/contracts/src/webhook-signing';
import type { IntegrationsService } from './service';

/** A signing secret sent is a change (set, rotated or removed) whatever the answers show: they show only whether one is set. */
function secretsOf(signing: IntegrationSigningPatch | null, before: IntegrationSigning, after: IntegrationSigning) {
  const secrets = {
    ...(signing?.webhook_secret !== undefined
      ? { webhook_secret: { before: before.signing.has_secret, after: after.signing.has_secret } }
      : {}),
    ...(signing?.sender_api_key !== undefined
      ? { sender_api_key: { before: before.signing.has_api_key === true, after: after.signing.has_api_key === true } }
      : {}),
  };
  return Object.keys(secrets).length ? secrets : undefined;
}

/** An integration as its change summary compares it: the pinned sender as a field; whether a secret is set is `webhook_secret`'s. */
function auditState({ signing, ...rest }: WebhookIntegration): Record<string, unknown> {
  return { ...rest, webhook_source: signing.source, send_without_consent: signing.send_without_consent === true };
}

/** Changes that weaken signing are an admin's (IntegrationsService.guardSigning). */
const actorOf = (ctx: Context) => ({ admin: currentUser(ctx)?.role === 'admin' });

export function integrationsRouter(integrations: IntegrationsService): Router {
  const router = new Router({ prefix: '/api/webhook-integrations' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await integrations.list();
  });
  router.post('/', async (ctx) => {
    const input = await validateBody(ctx, integrationRequestSchema);
    ctx.status = 201;
    ctx.body = await integrations.create(input, actorOf(ctx));
  });
  router.patch('/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const signing = await readSigningPatch(ctx);
    const patch = await validateBody(ctx, integrationPatchRequestSchema);
    const before = await integrations.get(id);
    const after = await integrations.update(id, patch, signing, actorOf(ctx));
    ctx.body = after;
    auditChange(ctx, auditState(before), auditState(after), { secrets: secretsOf(signing, before, after) });
  });
  router.post('/:id/test-delivery', async (ctx) => {
    const id = parseId(ctx.params.id);
    const { source } = await validateOptionalBody(ctx, testDeliveryRequestSchema);
    ctx.body = await integrations.testDelivery(id, source);
  });
  router.post('/:id/clear-contacts', requireAdminInProduction("clear an integration's contacts"), async (ctx) => {
    await requireCommandBody(ctx);
    const { message, cleared } = await integrations.clearContacts(parseId(ctx.params.id));
    ctx.body = { success: true, message };
    // Clearing an integration that had no contacts changed nothing.
    auditChange(ctx, { contacts: cleared }, { contacts: 0 });
  });
  router.delete('/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await integrations.get(id);
    await integrations.remove(id, actorOf(ctx));
    ctx.body = { success: true, message: 'Integration deleted' };
    auditChange(ctx, auditState(before), null);
  });
  return router;
}
