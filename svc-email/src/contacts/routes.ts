import Router from '@koa/router';
import { auditChange, BadRequestError, requireUser, validateBody, parseListQuery } from '@act/service-kit';
import { CONTACT_STATUSES, markPurchasedRequestSchema, type ContactStatus, type MarkPurchasedResponse } from '@act/contracts/src/email-api';
import { CONTACT_LIST_OPTIONS, type ContactsService } from './service';
import type { EventPublisher } from '../events/publisher';
import type { IntegrationCache } from '../integrations/cache';

export function contactsRouter(contacts: ContactsService, publisher: EventPublisher, integrations: IntegrationCache): Router {
  const router = new Router({ prefix: '/api/contacts' });
  router.use(requireUser());

  router.get('/', async (ctx) => {
    const q = parseListQuery(ctx.query, CONTACT_LIST_OPTIONS);
    const { status, integration_id } = ctx.query;
    if (status !== undefined && (typeof status !== 'string' || !CONTACT_STATUSES.includes(status as ContactStatus))) {
      throw new BadRequestError(`status must be one of: ${CONTACT_STATUSES.join(', ')}`);
    }
    let integrationId: number | 'none' | undefined;
    if (integration_id !== undefined) {
      if (integration_id === 'none') integrationId = 'none';
      else if (typeof integration_id === 'string' && /^\d+$/.test(integration_id) && Number(integration_id) > 0) integrationId = Number(integration_id);
      else throw new BadRequestError('integration_id must be a positive integer or none');
    }
    const started = performance.now();
    const body = await contacts.list(q, { status: status as ContactStatus | undefined, integrationId });
    // What the page cost the service, visible in the browser's network panel and to the browser bench.
    ctx.set('Server-Timing', `contacts;desc="mongodb";dur=${(performance.now() - started).toFixed(1)}`);
    ctx.body = body;
  });

  router.post('/mark-purchased', async (ctx) => {
    const { contact_id } = await validateBody(ctx, markPurchasedRequestSchema);
    const { contact, changed } = await contacts.markPurchasedByRef(contact_id);
    // Tell the SMS side too, so its sequence for this person stops.
    for (const c of changed) {
      const integration = await integrations.byId(c.integration_id);
      await publisher.purchaseCreated({ funnelId: integration?.funnel_id ?? 'default', contactId: c.contact_id, email: c.email, phone: c.phone ?? null, amount: null, currency: null, purchasedAt: new Date(c.purchased_at!).toISOString(), origin: { via: 'staff' } });
    }
    const body: MarkPurchasedResponse = { success: true, contact };
    ctx.body = body;
    // A contact already marked is a no-op: no record.
    auditChange(ctx, { purchased: false }, { purchased: changed.length > 0 }, { target_kind: 'contact', target_id: String(contact_id) });
  });
  return router;
}
