import Router from '@koa/router';
import { auditChange, requireAdminInProduction, requireCommandBody, requireUser, type AttributionLedger, type Outbox } from '@act/service-kit';
import { Subjects } from '@act/contracts';
import type { CheckAbandonedCartsResponse, SuccessResponse } from '@act/contracts/src/email-api';
import type { ContactsService } from '../contacts/service';
import type { EmailLogsService } from '../email-logs/service';
import type { WebhookEventsService } from '../webhook-events/service';
import { clearTestDeliveries } from './test-deliveries';

/**
 * The dashboard's Admin Tools. The spec shows the card to every user and leaves server enforcement open: any
 * signed-in user may use them, except on a production server, where only admins may (docs/privacy.md). Both take
 * no payload: a body that is not empty or a JSON object is refused before anything runs.
 */
export function testToolsRouter(deps: { contacts: ContactsService; logs: EmailLogsService; events: WebhookEventsService; reminders: { sweep(): Promise<number> }; ledger: AttributionLedger; outbox: Outbox }): Router {
  const router = new Router({ prefix: '/api/test' });
  router.post('/clear-data', requireAdminInProduction('clear all test data'), async (ctx) => {
    await requireCommandBody(ctx);
    const [contacts, logs, events] = await Promise.all([deps.contacts.clearAll(), deps.logs.clearAll(), deps.events.clearAll(), deps.ledger.clear()]);
    // The revenue figures come from the ledger, not from the logs: it goes too, here and (by the event) on the SMS
    // side, whose ledger holds the same facts; otherwise SMS Statistics would go on showing the cleared reminders.
    await deps.outbox.add(Subjects.testDataCleared, {});
    const body: SuccessResponse & { cleared: { contacts: number; email_logs: number; webhook_events: number } } = {
      success: true,
      message: `Cleared ${contacts} contacts, ${logs} email logs and ${events} webhook events`,
      cleared: { contacts, email_logs: logs, webhook_events: events },
    };
    ctx.body = body;
    // What was there before and that nothing is left; clearing empty tables changed nothing and is not recorded.
    auditChange(ctx, body.cleared, { contacts: 0, email_logs: 0, webhook_events: 0 }, { target_kind: 'test-data', target_id: null });
  });

  // The test deliveries' contacts only, for any signed-in user (they are the user's own samples), audited.
  router.post('/clear-test-deliveries', requireUser(), async (ctx) => {
    await requireCommandBody(ctx);
    const cleared = await clearTestDeliveries(deps.contacts.coll, deps.logs.coll);
    const body: SuccessResponse & { cleared: { contacts: number; email_logs: number } } = {
      success: true,
      message: `Removed ${cleared.contacts} test delivery contact(s) and ${cleared.logs} email log(s)`,
      cleared: { contacts: cleared.contacts, email_logs: cleared.logs },
    };
    ctx.body = body;
    auditChange(ctx, body.cleared, { contacts: 0, email_logs: 0 }, { target_kind: 'test-deliveries', target_id: null });
  });

  router.post('/check-abandoned-carts', requireAdminInProduction('process missed emails'), async (ctx) => {
    await requireCommandBody(ctx);
    const processed = await deps.reminders.sweep();
    const body: CheckAbandonedCartsResponse = { success: true, message: `Abandoned cart check completed: ${processed} reminder(s) processed`, processed };
    ctx.body = body;
    // A command, not an edit: recorded whatever it found to do, with how many reminders it processed.
    ctx.state.audit = { before: null, after: { processed } };
  });
  return router;
}
