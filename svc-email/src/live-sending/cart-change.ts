import type { Collection } from 'mongodb';
import { cartChangedAt } from '@act/contracts/src/cart';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { CampaignsService } from '../campaigns/service';
import type { SendClaimDoc } from './model';
import type { EmailSettings, EmailWork } from './work';
import { flowLog, SEQUENCE_RESTARTED } from './flow-log';

/**
 * When the sender last changed the contact's cart, if the campaign's last template did not show that cart (else null).
 * Compared with the sender's time of the cart that template showed, not with when it went out: a cart changed while
 * the email was on its way to Resend is one the shopper has not seen.
 */
function changedSinceLastStep(w: EmailWork): Date | null {
  if (w.row.stage === 'remind' || w.row.last_order === 0) return null;
  const at = cartChangedAt(w.contact?.cart);
  if (!at) return null;
  // Rows written before the shown cart was kept fall back on the step's time.
  const shown = w.row.cart_at === undefined ? w.row.base_at : w.row.cart_at;
  return shown === null || at.getTime() > shown.getTime() ? at : null;
}

/**
 * The cart changed since the campaign's last email: a campaign set to 'restart' starts again from its first
 * template (the contact's template claims go, and the row's position goes back to the start; it is written with the
 * next step's release); 'continue' goes on with the next template. Put after the contact is read and before the
 * next template is chosen.
 */
export function emailCartChange(deps: { claims: Collection<SendClaimDoc>; campaigns: Pick<CampaignsService, 'find'>; logger: Logger }): FlowStep<EmailWork, EmailSettings> {
  return step('cart change', async (open, ctx) => {
    const changed = open.filter((w) => w.row.campaign_id !== null && changedSinceLastStep(w));
    if (changed.length === 0) return;
    const campaigns = new Map<number, Awaited<ReturnType<CampaignsService['find']>>>();
    for (const id of new Set(changed.map((w) => w.row.campaign_id!))) campaigns.set(id, await deps.campaigns.find(id));
    const restart = changed.filter((w) => {
      const campaign = campaigns.get(w.row.campaign_id!);
      if (!campaign) return false;
      const at = changedSinceLastStep(w)!;
      const decision = exitDecision(
        { campaignId: campaign.id, enteredAt: w.row.created_at, stepsSent: w.row.sent },
        { onCartChange: campaign.on_cart_change ?? 'continue', priority: campaign.priority ?? 0 },
        { kind: 'cart_changed', at },
      );
      if (decision.action !== 'restart') return false;
      // Once per change of the cart (its time): the same change seen again after a crash logs nothing more.
      w.flowLog = flowLog(w, SEQUENCE_RESTARTED, decision.reason, `${campaign.id}:${at.getTime()}`, ctx.now);
      return true;
    });
    if (restart.length === 0) return;
    await deps.claims.deleteMany({ contact_ref: { $in: restart.map((w) => w.ref) } });
    for (const w of restart) {
      w.row.last_order = 0;
      w.row.last_template_id = 0;
      deps.logger.info({ contact: w.ref, campaign: w.row.campaign_id }, 'the cart changed: the email sequence starts again from its first template');
    }
  });
}
