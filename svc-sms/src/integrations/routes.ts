import Router from '@koa/router';
import { parseId, readSigningPatch, requireUser, validateOptionalBody } from '@act/service-kit';
import { testDeliveryRequestSchema } from '@act/contracts/src/webhook-signing';
import type { IntegrationService } from './service';
import { jsonObject } from '../http';

export function integrationRouter(service: IntegrationService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-webhook-integrations', async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/sms-webhook-integrations', async (ctx) => {
    ctx.status = 201;
    ctx.body = await service.create(jsonObject(ctx));
  });
  router.patch('/api/sms-webhook-integrations/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const signing = await readSigningPatch(ctx);
    ctx.body = await service.update(id, jsonObject(ctx), signing);
  });
  router.post('/api/sms-webhook-integrations/:id/test-delivery', async (ctx) => {
    const id = parseId(ctx.params.id);
    const { source } = await validateOptionalBody(ctx, testDeliveryRequestSchema);
    ctx.body = await service.testDelivery(id, source);
  });
  router.delete('/api/sms-webhook-integrations/:id', async (ctx) => {
    await service.remove(parseId(ctx.params.id));
    ctx.body = { success: true, message: 'SMS webhook integration deleted successfully' };
  });
  return router;
}
