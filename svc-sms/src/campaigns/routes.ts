import Router from '@koa/router';
import { auditChange, parseId, requireUser } from '@act/service-kit';
import type { CampaignService } from './service';
import { jsonObject } from '../http';

export function campaignRouter(service: CampaignService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-campaigns', async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/sms-campaigns', async (ctx) => {
    ctx.status = 201;
    ctx.body = await service.create(jsonObject(ctx));
  });
  router.patch('/api/sms-campaigns/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await service.get(id);
    const after = await service.update(id, jsonObject(ctx));
    ctx.body = after;
    auditChange(ctx, before, after);
  });
  router.delete('/api/sms-campaigns/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await service.get(id);
    const { templates_deleted } = await service.remove(id);
    auditChange(ctx, { ...before, templates: templates_deleted }, null);
    ctx.body = { success: true, message: 'Campaign and associated templates deleted successfully', templates_deleted };
  });
  return router;
}
