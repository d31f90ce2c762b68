import Router from '@koa/router';
import { parseId, readSigningPatch, requireUser, validateBody, validateOptionalBody } from '@act/service-kit';
import { integrationPatchRequestSchema, integrationRequestSchema } from '@act/contracts/src/email-api';
import { testDeliveryRequestSchema } from '@act/contracts/src/webhook-signing';
import type { IntegrationsService } from './service';

export function integrationsRouter(integrations: IntegrationsService): Router {
  const router = new Router({ prefix: '/api/webhook-integrations' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await integrations.list();
  });
  router.post('/', async (ctx) => {
    const input = await validateBody(ctx, integrationRequestSchema);
    ctx.status = 201;
    ctx.body = await integrations.create(input);
  });
  router.patch('/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const signing = await readSigningPatch(ctx);
    const patch = await validateBody(ctx, integrationPatchRequestSchema);
    ctx.body = await integrations.update(id, patch, signing);
  });
  router.post('/:id/test-delivery', async (ctx) => {
    const id = parseId(ctx.params.id);
    const { source } = await validateOptionalBody(ctx, testDeliveryRequestSchema);
    ctx.body = await integrations.testDelivery(id, source);
  });
  router.post('/:id/clear-contacts', async (ctx) => {
    const { message } = await integrations.clearContacts(parseId(ctx.params.id));
    ctx.body = { success: true, message };
  });
  router.delete('/:id', async (ctx) => {
    await integrations.remove(parseId(ctx.params.id));
    ctx.body = { success: true, message: 'Integration deleted' };
  });
  return router;
}
