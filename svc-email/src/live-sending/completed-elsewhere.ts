import type { Collection } from 'mongodb';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { EmailSettings, EmailWork } from './work';
import { flowLog, SEQUENCE_EXITED } from './flow-log';

/** Why a flow ended this way, on its row. */
export const COMPLETED_ELSEWHERE = 'completed_elsewhere';

/**
 * The sender says the checkout was completed elsewhere: it reported a purchase naming another checkout of the same
 * shopper (same address) in the same integration after this flow began (a Shopify order whose checkout_token is
 * another checkout, a Stripe checkout.session.completed for another session, a WooCommerce order paid for another
 * order). That purchase marked the checkout it names purchased, not this one; this flow ends, and the timeline says
 * which checkout was paid (docs/delivery.md, "Checkout completed elsewhere"). One read for the burst: the shoppers' purchased contacts
 * by address (the `email_lower` index).
 */
export function emailCompletedElsewhere(deps: { contacts: Collection<ContactDoc>; logger: Logger }): FlowStep<EmailWork, EmailSettings> {
  return step('completed elsewhere', async (open, ctx) => {
    const running = open.filter((w) => w.row.campaign_id !== null && w.contact);
    if (running.length === 0) return;
    const paid = await deps.contacts
      .find(
        { email_lower: { $in: [...new Set(running.map((w) => w.contact!.email.toLowerCase()))] }, status: 'purchased' },
        { projection: { _id: 0, id: 1, contact_id: 1, email_lower: 1, integration_id: 1, purchased_at: 1 } },
      )
      .toArray();
    if (paid.length === 0) return;
    for (const w of running) {
      const address = w.contact!.email.toLowerCase();
      const other = paid.find(
        (p) => p.id !== w.ref && p.email_lower === address && p.integration_id === w.contact!.integration_id && p.purchased_at && p.contact_id !== w.contact!.contact_id,
      );
      if (!other) continue;
      const decision = exitDecision(
        { campaignId: w.row.campaign_id!, enteredAt: w.row.created_at, stepsSent: w.row.sent },
        { onCartChange: 'continue', priority: 0 },
        { kind: 'completed_elsewhere', at: other.purchased_at!, source: `the sender reported checkout ${other.contact_id} paid at ${other.purchased_at!.toISOString()}` },
      );
      if (decision.action !== 'exit') continue;
      w.outcome = 'stopped';
      w.release = { set: { state: 'stopped', due_at: null, stop_reason: COMPLETED_ELSEWHERE } };
      w.flowLog = flowLog(w, SEQUENCE_EXITED, decision.reason, `${COMPLETED_ELSEWHERE}:${other.id}`, ctx.now);
      deps.logger.info({ contact: w.ref, paid: other.id }, 'email flow ended: the checkout was completed elsewhere');
    }
  });
}
