import Router from '@koa/router';
import { auditChange, BadRequestError, requireAdminInProduction, requireCommandBody, requireUser, validateBody } from '@act/service-kit';
import { markPurchasedSchema, SMS_CONTACT_STATUSES } from '@act/contracts/src/sms-api';
import { CONTACT_LIST_OPTIONS, type ContactService } from './service';
import { oneOf, parseSmsPageQuery } from '../paging';
import type { FunnelEventPublisher } from '../events/publisher';

export function contactRouter(service: ContactService, publisher: FunnelEventPublisher): Router {
  const router = new Router();
  router.use(requireUser());
  // Plain: the spec's list. `?page=` (with pageSize, search, status, integration_id): one page for the screen.
  router.get('/api/sms-contacts', async (ctx) => {
    const q = parseSmsPageQuery(ctx.query, CONTACT_LIST_OPTIONS, ['status', 'integration_id']);
    if (!q) {
      ctx.body = await service.list();
      return;
    }
    const status = oneOf(ctx.query.status, 'status', SMS_CONTACT_STATUSES);
    const raw = ctx.query.integration_id;
    let integrationId: number | 'none' | undefined;
    if (raw !== undefined) {
      if (raw === 'none') integrationId = 'none';
      else if (typeof raw === 'string' && /^\d{1,15}$/.test(raw) && Number(raw) > 0) integrationId = Number(raw);
      else throw new BadRequestError('integration_id must be a positive integer or none');
    }
    ctx.body = await service.page(q, { status, integrationId });
  });
  router.post('/api/sms-contacts/mark-purchased', async (ctx) => {
    const { contact_id } = await validateBody(ctx, markPurchasedSchema);
    const { contacts, statusBefore } = await service.markPurchasedManually(contact_id as number | string);
    // The person bought: the email side stops its reminders too.
    for (const c of contacts) {
      await publisher.purchase({
        funnelId: c.funnel_id,
        contactId: c.contact_id,
        email: c.email,
        phone: c.phone,
        amount: null,
        currency: null,
        purchasedAt: (c.purchased_at ?? new Date()).toISOString(),
        // A staff action, not a delivery: the email side applies it whatever its signing rules.
        origin: { via: 'staff' },
      });
    }
    ctx.body = { success: true, message: 'Contact marked as purchased', updated: contacts.length };
    // Each contact's status before and after (by row id); contacts already purchased leave no change, and no record.
    auditChange(ctx, { status: statusBefore }, { status: Object.fromEntries(contacts.map((c) => [String(c.id), c.status])) }, { target_kind: 'sms-contact', target_id: String(contact_id) });
  });
  // 'Clear All Contacts': admins only on a production server, and only on an empty body or a JSON object
  // (service-kit's destructive.ts says why).
  router.post('/api/sms-contacts/clear', requireAdminInProduction('clear all SMS contacts'), async (ctx) => {
    await requireCommandBody(ctx);
    const deleted = await service.clear();
    ctx.body = { success: true, message: 'All SMS contacts cleared', deleted };
    auditChange(ctx, { contacts: deleted }, { contacts: 0 }, { target_kind: 'sms-contact', target_id: null });
  });
  return router;
}
