import type { Collection } from 'mongodb';
import { exitDecision, step, type FlowStep } from '@act/flow';
import type { Logger } from '@act/service-kit';
import type { CampaignsService } from '../campaigns/service';
import type { ContactDoc } from '../contacts/model';
import type { SequenceStepDoc } from './model';
import type { EmailSettings, EmailWork } from './work';
import { flowLog, SEQUENCE_EXITED } from './flow-log';

export interface EmailPriorityExitDeps {
  contacts: Collection<ContactDoc>;
  rows: Collection<SequenceStepDoc>;
  campaigns: Pick<CampaignsService, 'find'>;
  logger: Logger;
}

/**
 * The same address entered another funnel's campaign of higher priority after this flow began: this flow ends
 * (packages/flow exitDecision), so the person gets the campaign that matters more. One read of the burst's addresses
 * (the `email_lower` index) and one of those contacts' flow rows (by `contact_ref`).
 */
export function emailPriorityExit(deps: EmailPriorityExitDeps): FlowStep<EmailWork, EmailSettings> {
  return step('priority', async (open, ctx) => {
    const ranked = open.filter((w) => w.row.campaign_id !== null && w.row.stage !== 'remind' && w.contact);
    if (ranked.length === 0) return;
    const people = await deps.contacts
      .find({ email_lower: { $in: [...new Set(ranked.map((w) => w.contact!.email.toLowerCase()))] } }, { projection: { _id: 0, id: 1, email_lower: 1 } })
      .toArray();
    const others = people.filter((p) => !ranked.some((w) => w.ref === p.id));
    if (others.length === 0) return;
    const rows = await deps.rows
      .find({ contact_ref: { $in: others.map((p) => p.id) } }, { projection: { _id: 0, contact_ref: 1, campaign_id: 1, created_at: 1 } })
      .toArray();
    const addressOf = new Map(others.map((p) => [p.id, p.email_lower]));
    const campaigns = new Map<number, Awaited<ReturnType<CampaignsService['find']>>>();
    const campaign = async (id: number) => {
      if (!campaigns.has(id)) campaigns.set(id, await deps.campaigns.find(id));
      return campaigns.get(id) ?? null;
    };
    for (const w of ranked) {
      const own = await campaign(w.row.campaign_id!);
      if (!own) continue;
      for (const r of rows) {
        if (r.campaign_id === null || addressOf.get(r.contact_ref) !== w.contact!.email.toLowerCase()) continue;
        const other = await campaign(r.campaign_id);
        if (!other) continue;
        const decision = exitDecision(
          { campaignId: own.id, enteredAt: w.row.created_at, stepsSent: w.row.sent },
          { onCartChange: own.on_cart_change ?? 'continue', priority: own.priority ?? 0 },
          { kind: 'entered_campaign', at: r.created_at, campaignId: other.id, priority: other.priority ?? 0 },
        );
        if (decision.action !== 'exit') continue;
        w.outcome = 'stopped';
        w.release = { set: { state: 'stopped', due_at: null, stop_reason: 'higher_priority_campaign' } };
        w.flowLog = flowLog(w, SEQUENCE_EXITED, decision.reason, String(own.id), ctx.now);
        deps.logger.info({ contact: w.ref, campaign: own.id, reason: decision.reason }, 'email flow ended: a campaign of higher priority');
        break;
      }
    }
  });
}
