import type { Collection } from 'mongodb';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { CampaignDoc } from '../campaigns/model';
import type { ContactDoc } from '../contacts/model';
import { isOpen } from './store';
import type { SmsWork } from './work';
import type { StepLogs } from './step-logs';
import { readSamePhone } from './same-phone';

export interface PriorityExitDeps {
  contacts: Collection<ContactDoc>;
  /** The campaign an integration's contacts are in (null: none, or the integration is off). */
  campaignOf(integrationId: number): Promise<CampaignDoc | null>;
  logs: Pick<StepLogs, 'flowFields'>;
  logger: Logger;
}

/**
 * The same phone entered another integration's campaign of higher priority after this contact entered its own:
 * this sequence ends (packages/flow exitDecision), so the person gets the one that matters more. The phones' contacts
 * are read once for the burst (same-phone.ts).
 */
export function smsPriorityExit(deps: PriorityExitDeps): FlowStep<SmsWork, TwilioConfig> {
  return step('priority', async (open) => {
    const ranked = open.filter((w) => w.campaign);
    if (ranked.length === 0) return;
    await readSamePhone(deps.contacts, ranked);
    for (const w of ranked) {
      for (const o of w.samePhone!) {
        if (!isOpen(o.status) || o.id === w.c.id || o.integration_id === null) continue;
        const campaign = await deps.campaignOf(o.integration_id);
        if (!campaign) continue;
        const decision = exitDecision(
          { campaignId: w.campaign!.id, enteredAt: w.c.created_at, stepsSent: w.c.sent_count },
          { onCartChange: w.campaign!.on_cart_change ?? 'continue', priority: w.campaign!.priority ?? 0 },
          { kind: 'entered_campaign', at: o.created_at, campaignId: campaign.id, priority: campaign.priority ?? 0 },
        );
        if (decision.action !== 'exit') continue;
        w.outcome = 'stopped';
        w.set = { next_at: null, status: w.c.step === 0 && w.c.status === 'pending' ? 'abandoned' : w.c.status };
        w.flowLog = deps.logs.flowFields(w.c, 'sequence_exited', decision.reason);
        deps.logger.info({ contact: w.c.id, campaign: w.campaign!.id, reason: decision.reason }, 'SMS sequence ended: a campaign of higher priority');
        break;
      }
    }
  });
}
