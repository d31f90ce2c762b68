import Router from '@koa/router';
import { requireUser, validateBody } from '@act/service-kit';
import { markPurchasedSchema } from '@act/contracts/src/sms-api';
import type { ContactService } from './service';
import type { FunnelEventPublisher } from '../events/publisher';

export function contactRouter(service: ContactService, publisher: FunnelEventPublisher): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-contacts', async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/sms-contacts/mark-purchased', async (ctx) => {
    const { contact_id } = await validateBody(ctx, markPurchasedSchema);
    const contacts = await service.markPurchasedManually(contact_id as number | string);
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
      });
    }
    ctx.body = { success: true, message: 'Contact marked as purchased', updated: contacts.length };
  });
  router.post('/api/sms-contacts/clear', async (ctx) => {
    const deleted = await service.clear();
    ctx.body = { success: true, message: 'All SMS contacts cleared', deleted };
  });
  return router;
}
