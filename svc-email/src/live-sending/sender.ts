import type { Logger } from '@act/service-kit';
import type { ClaimedContact, ReminderSender } from '../reminders/sender';
import { heldEntry, reminderLogKey, wouldSendMessage } from '../reminders/sender';
import type { EmailLogsService, NewEmailLog } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { UnsubscribeService } from '../unsubscribe/service';
import { unsubscribedMessage, type SequenceEngine, type SequenceStart } from './engine';

export interface CampaignReminderSenderDeps {
  logs: EmailLogsService;
  unsubscribes: UnsubscribeService;
  integrations: IntegrationCache;
  campaigns: CampaignsService;
  templates: TemplatesService;
  engine: SequenceEngine;
  /** EMAIL_LIVE_SENDING. */
  liveSending: boolean;
  logger: Logger;
  /** Contacts whose reminder was suppressed by the unsubscribe list (they then show `unsubscribed`). */
  onUnsubscribed?: (contactIds: number[]) => Promise<void>;
}

/**
 * Part 2's ReminderSender, for the contacts the reminder service has just claimed (pending → sent):
 * - an unsubscribed address gets nothing (a log line says so);
 * - live sending on and the contact's integration has an active campaign with active templates: its sequence
 *   starts (SequenceEngine sends through Resend);
 * - otherwise part 1's `would_send` log, as before.
 */
export class CampaignReminderSender implements ReminderSender {
  constructor(private readonly deps: CampaignReminderSenderDeps) {}

  async send(contacts: ClaimedContact[]): Promise<void> {
    const { logs, unsubscribes } = this.deps;
    const unsubscribed = await unsubscribes.unsubscribedAmong(contacts.map((c) => c.email));
    const entries: NewEmailLog[] = [];
    const sequences: SequenceStart[] = [];
    const sendable = new Map<number, boolean>();
    const suppressed: number[] = [];
    for (const c of contacts) {
      if (unsubscribed.has(c.email.trim().toLowerCase())) {
        suppressed.push(c.id);
        entries.push({
          key: reminderLogKey(c.id),
          contact_id: c.contact_id,
          contact_ref: c.id,
          email: c.email,
          message: unsubscribedMessage(c.email),
          status: 'unsubscribed',
        });
        continue;
      }
      const campaignId = this.deps.liveSending ? await this.campaignFor(c, sendable) : null;
      if (campaignId !== null)
        sequences.push({
          id: c.id,
          contact_id: c.contact_id,
          integration_id: c.integration_id,
          campaign_id: campaignId,
        });
      else
        entries.push({
          key: reminderLogKey(c.id),
          contact_id: c.contact_id,
          contact_ref: c.id,
          email: c.email,
          message: wouldSendMessage(c.email),
          status: 'would_send',
        });
    }
    await logs.addMany(entries);
    if (suppressed.length) await this.deps.onUnsubscribed?.(suppressed);
    await this.deps.engine.begin(sequences);
  }

  async held(contacts: ClaimedContact[]): Promise<void> {
    await this.deps.logs.addMany(contacts.map(heldEntry));
  }

  /** The integration's campaign when it can send (exists, active, has an active template); memoised per batch. */
  private async campaignFor(c: ClaimedContact, memo: Map<number, boolean>): Promise<number | null> {
    const integration = await this.deps.integrations.byId(c.integration_id);
    const id = integration?.campaign_id ?? null;
    if (id === null) return null;
    if (!memo.has(id)) {
      const campaign = await this.deps.campaigns.find(id);
      memo.set(id, !!campaign?.active && (await this.deps.templates.activeOfCampaign(id)).length > 0);
    }
    return memo.get(id) ? id : null;
  }
}
