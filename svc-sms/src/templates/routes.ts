import Router from '@koa/router';
import { auditChange, parseId, requireUser, validateBody } from '@act/service-kit';
import { smsPreviewRequestSchema, smsTemplateTestRequestSchema } from '@act/contracts/src/template-preview';
import type { TemplateService } from './service';
import { jsonObject } from '../http';

export function templateRouter(service: TemplateService): Router {
  const router = new Router();
  router.use(requireUser());
  // A template's text as one contact (default: the newest with a cart) or sample data would get it; nothing sent.
  router.post('/api/sms-templates/preview', async (ctx) => {
    ctx.body = await service.preview.render(await validateBody(ctx, smsPreviewRequestSchema));
  });
  router.get('/api/sms-templates/preview/contacts', async (ctx) => {
    ctx.body = await service.preview.search(typeof ctx.query.q === 'string' ? ctx.query.q : undefined);
  });
  router.get('/api/sms-templates', async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/sms-templates', async (ctx) => {
    ctx.status = 201;
    ctx.body = await service.create(jsonObject(ctx));
  });
  router.patch('/api/sms-templates/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await service.get(id);
    const after = await service.update(id, jsonObject(ctx));
    ctx.body = after;
    auditChange(ctx, before, after);
  });
  // Not in the spec's call table; kept so a template can be removed without deleting its campaign.
  router.delete('/api/sms-templates/:id', async (ctx) => {
    const id = parseId(ctx.params.id);
    const before = await service.get(id);
    await service.remove(id);
    ctx.body = { success: true, message: 'Template deleted successfully' };
    auditChange(ctx, before, null);
  });
  router.post('/api/sms-templates/:id/test', async (ctx) => {
    const id = parseId(ctx.params.id);
    const { testPhone, contact_id } = await validateBody(ctx, smsTemplateTestRequestSchema);
    ctx.body = await service.sendTest(id, testPhone, contact_id);
  });
  return router;
}
