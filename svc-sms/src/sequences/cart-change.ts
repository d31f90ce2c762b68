import type { Collection } from 'mongodb';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import { cartChangedAt } from '@act/contracts/src/cart';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { SendClaimDoc } from './model';
import type { SmsWork } from './work';
import type { StepLogs } from './step-logs';

/**
 * When the sender last changed the contact's cart, if the contact's last text did not show that cart (else null):
 * compared with the sender's time of the cart that text showed, not with when it went out, so a cart changed while
 * the text was on its way to Twilio counts.
 */
function changedSinceLastText(w: SmsWork): Date | null {
  const at = cartChangedAt(w.c.cart);
  if (!at || !w.c.last_sent_at) return null;
  // Contacts texted before the shown cart was kept fall back on the text's time.
  const shown = w.c.last_sent_cart_at === undefined ? new Date(w.c.last_sent_at) : w.c.last_sent_cart_at;
  return shown === null || at.getTime() > shown.getTime() ? at : null;
}

/**
 * The cart changed since the shopper's last text: a campaign set to 'restart' starts its sequence again from the
 * first step (its template claims go, so the first template is the next one; the contact's step number keeps
 * growing, so no step is claimed twice); 'continue' goes on with the next step. Put after the interrupted sends are
 * settled (no claim of the current step is left then) and before the next template is chosen.
 */
export function smsCartChange(sends: Collection<SendClaimDoc>, logs: Pick<StepLogs, 'flowFields'>, logger: Logger): FlowStep<SmsWork, TwilioConfig> {
  return step('cart change', async (open) => {
    const restart = open.filter((w) => {
      const at = changedSinceLastText(w);
      if (!at || !w.campaign) return false;
      const decision = exitDecision(
        { campaignId: w.campaign.id, enteredAt: w.c.created_at, stepsSent: w.c.sent_count },
        { onCartChange: w.campaign.on_cart_change ?? 'continue', priority: w.campaign.priority ?? 0 },
        { kind: 'cart_changed', at },
      );
      if (decision.action !== 'restart') return false;
      w.flowLog = logs.flowFields(w.c, 'sequence_restarted', decision.reason);
      return true;
    });
    if (restart.length === 0) return;
    await sends.deleteMany({ contact_ref: { $in: restart.map((w) => w.c.id) } });
    for (const w of restart) {
      w.claims = [];
      logger.info({ contact: w.c.id, campaign: w.campaign!.id }, 'the cart changed: the SMS sequence starts again from its first step');
    }
  });
}
