import Router from '@koa/router';
import { auditChange, parseId, requireUser, validateBody } from '@act/service-kit';
import { campaignRequestSchema } from '@act/contracts/src/email-api';
import type { CampaignsService } from './service';

export function campaignsRouter(campaigns: CampaignsService): Router {
  const router = new Router({ prefix: '/api/email/campaigns' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await campaigns.list();
  });
  router.post('/', async (ctx) => {
    const input = await validateBody(ctx, campaignRequestSchema);
    ctx.status = 201;
    ctx.body = await campaigns.create(input);
  });
  router.get('/:id', async (ctx) => {
    ctx.body = await campaigns.get(parseId(ctx.params.id, 'campaign id'));
  });
  router.put('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'campaign id');
    // Fields absent from the body keep their value, so the defaults must not fill them in here.
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const input = await validateBody(ctx, campaignRequestSchema);
    const before = await campaigns.get(id);
    const after = await campaigns.update(id, {
      name: input.name,
      description: body && 'description' in body ? input.description : undefined,
      type: body && 'type' in body ? input.type : undefined,
      active: body && 'active' in body ? input.active : undefined,
      on_cart_change: input.on_cart_change,
      priority: input.priority,
    });
    ctx.body = after;
    auditChange(ctx, before, after);
  });
  router.delete('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'campaign id');
    const before = await campaigns.get(id);
    await campaigns.remove(id);
    ctx.body = { success: true, message: 'Campaign deleted' };
    auditChange(ctx, before, null);
  });
  return router;
}
