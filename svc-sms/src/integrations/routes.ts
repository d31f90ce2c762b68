import Router from '@koa/router';
import { parseId, requireUser } from '@act/service-kit';
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
    ctx.body = await service.update(parseId(ctx.params.id), jsonObject(ctx));
  });
  router.delete('/api/sms-webhook-integrations/:id', async (ctx) => {
    await service.remove(parseId(ctx.params.id));
    ctx.body = { success: true, message: 'SMS webhook integration deleted successfully' };
  });
  return router;
}
