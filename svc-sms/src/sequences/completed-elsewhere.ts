import type { Collection } from 'mongodb';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { StepLogs } from './step-logs';
import { readSamePhone } from './same-phone';
import type { SmsWork } from './work';

/**
 * The sender says the checkout was completed elsewhere: it reported a purchase naming another checkout of the same
 * shopper (same phone) in the same integration after this contact came in (a Shopify order whose checkout_token is
 * another checkout, a Stripe session, a WooCommerce order). That purchase marked the checkout it names purchased,
 * not this one; this sequence ends, and the timeline says which checkout was paid (docs/delivery.md, "Checkout
 * completed elsewhere"). The phones' contacts are read once for the burst (same-phone.ts).
 */
export function smsCompletedElsewhere(deps: { contacts: Collection<ContactDoc>; logs: Pick<StepLogs, 'flowFields'>; logger: Logger }): FlowStep<SmsWork, TwilioConfig> {
  return step('completed elsewhere', async (open) => {
    await readSamePhone(deps.contacts, open);
    for (const w of open) {
      const other = w.samePhone!.find(
        (p) =>
          p.status === 'purchased' && p.id !== w.c.id && p.integration_id === w.c.integration_id && p.contact_id !== w.c.contact_id && p.purchased_at,
      );
      if (!other || !w.campaign) continue;
      const at = new Date(other.purchased_at!);
      const decision = exitDecision(
        { campaignId: w.campaign.id, enteredAt: w.c.created_at, stepsSent: w.c.sent_count },
        { onCartChange: 'continue', priority: 0 },
        { kind: 'completed_elsewhere', at, source: `the sender reported checkout ${other.contact_id} paid at ${at.toISOString()}` },
      );
      if (decision.action !== 'exit') continue;
      w.outcome = 'stopped';
      w.set = { next_at: null, status: w.c.step === 0 && w.c.status === 'pending' ? 'abandoned' : w.c.status };
      w.flowLog = deps.logs.flowFields(w.c, 'sequence_exited', decision.reason);
      deps.logger.info({ contact: w.c.id, paid: other.id }, 'SMS sequence ended: the checkout was completed elsewhere');
    }
  });
}
