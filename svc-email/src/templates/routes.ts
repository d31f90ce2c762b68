import Router from '@koa/router';
import type { Context } from 'koa';
import { auditChange, parseId, requireUser, validateBody } from '@act/service-kit';
import {
  templatePatchRequestSchema,
  templateRequestSchema,
  testEmailRequestSchema,
  type TemplateForm,
  type TestEmailResponse,
} from '@act/contracts/src/email-api';
import { emailPreviewRequestSchema } from '@act/contracts/src/template-preview';
import type { TemplateCreateInput, TemplatesService } from './service';
import { toTemplate } from './model';
import type { TemplatePreview } from './preview';

export interface TestSender {
  /** Sends one template to an address (with a contact's data when given); `status` is the HTTP status of the answer. */
  sendTest(templateId: number, to: string, contactId?: number | null): Promise<{ status: number; body: TestEmailResponse & { error?: string } }>;
  preview: Pick<TemplatePreview, 'render' | 'search'>;
}

function bodyField(ctx: Context, key: string): unknown {
  const b = ctx.request.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>)[key] : undefined;
}

/** Which of section 5's two message sets applies: the campaign page's when the template belongs to a campaign. */
function formOf(campaignId: unknown): TemplateForm {
  return typeof campaignId === 'number' ? 'campaign' : 'standalone';
}

export function templatesRouter(templates: TemplatesService, tests: TestSender): Router {
  const router = new Router({ prefix: '/api/resend/templates' });
  router.use(requireUser());

  router.get('/', async (ctx) => {
    ctx.body = await templates.list();
  });

  // A template's content as one contact (default: the newest with a cart) or sample data would get it; nothing sent.
  router.post('/preview', async (ctx) => {
    ctx.body = await tests.preview.render(await validateBody(ctx, emailPreviewRequestSchema));
  });

  router.get('/preview/contacts', async (ctx) => {
    ctx.body = await tests.preview.search(typeof ctx.query.q === 'string' ? ctx.query.q : undefined);
  });

  router.get('/campaign/:campaignId', async (ctx) => {
    ctx.body = await templates.listByCampaign(parseId(ctx.params.campaignId, 'campaign id'));
  });

  router.post('/', async (ctx) => {
    const form = formOf(bodyField(ctx, 'campaign_id'));
    const input = await validateBody(ctx, templateRequestSchema(form));
    const typeGiven = typeof bodyField(ctx, 'type') === 'string' && (bodyField(ctx, 'type') as string).trim() !== '';
    ctx.status = 201;
    // The schema's defaults fill every field but the order and delay (those depend on the campaign).
    const fields = input as Omit<TemplateCreateInput, 'campaign_id' | 'typeGiven'>;
    ctx.body = await templates.create({ ...fields, campaign_id: input.campaign_id ?? null, typeGiven }, form);
  });

  router.patch('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'template id');
    const existing = await templates.get(id);
    const given = bodyField(ctx, 'campaign_id');
    const form = formOf(given === undefined ? existing.campaign_id : given);
    const patch = await validateBody(ctx, templatePatchRequestSchema(form));
    const after = await templates.update(id, patch, form);
    ctx.body = after;
    auditChange(ctx, toTemplate(existing), after);
  });

  router.delete('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'template id');
    const before = await templates.get(id);
    await templates.remove(id);
    ctx.body = { success: true, message: 'Template deleted' };
    auditChange(ctx, toTemplate(before), null);
  });

  router.post('/:id/test', async (ctx) => {
    const id = parseId(ctx.params.id, 'template id');
    const { testEmail, contact_id } = await validateBody(ctx, testEmailRequestSchema);
    const { status, body } = await tests.sendTest(id, testEmail, contact_id);
    ctx.status = status;
    ctx.body = body;
  });

  return router;
}
