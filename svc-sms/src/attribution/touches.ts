import type { Collection } from 'mongodb';
import type { Logger, Outbox } from '@act/service-kit';
import { Subjects, type EventEnvelope, type SendEvent } from '@act/contracts';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationDoc } from '../integrations/model';
import type { LogDoc } from '../logs/model';

/** Twilio took the message (a SID) and has not refused it: attribution's touch. */
const isSend = (l: Omit<LogDoc, 'id'>) => !!l.message_sid && l.contact_ref !== null && l.status !== 'failed' && l.status !== 'undelivered';
/** A contact held out of its campaign: the ledger's holdout mark (no send), so its purchases count for the control group. */
const isHoldout = (l: Omit<LogDoc, 'id'>) => l.status === 'held_out' && l.contact_ref !== null;
const isTouch = (l: Omit<LogDoc, 'id'>) => isSend(l) || isHoldout(l);

/**
 * Publishes `send.sms.sent` for each message a step handed to Twilio, through the outbox (both ledgers, this one
 * included, take it from the stream). A failure here is logged and never fails or slows the step: the message went out.
 */
export function smsTouchPublisher({ outbox, contacts, integrations, logger }: { outbox: Outbox; contacts: Collection<ContactDoc>; integrations: Collection<IntegrationDoc>; logger: Logger }) {
  return async (logs: Omit<LogDoc, 'id'>[]): Promise<void> => {
    const touched = logs.filter(isTouch);
    // Not awaited: a burst's bookkeeping must not wait for attribution (it holds the contacts' leases).
    if (touched.length) void publish(touched);
  };

  async function publish(touched: Omit<LogDoc, 'id'>[]): Promise<void> {
    try {
      const refs = [...new Set(touched.map((l) => l.contact_ref!))];
      const ids = [...new Set(touched.map((l) => l.integration_id).filter((v): v is number => v !== null))];
      const [found, owners] = await Promise.all([
        contacts.find({ id: { $in: refs } }, { projection: { _id: 0, id: 1, email: 1, funnel_id: 1, test: 1 } }).toArray(),
        integrations.find({ id: { $in: ids } }, { projection: { _id: 0, id: 1, funnel_id: 1, sms_campaign_id: 1 } }).toArray(),
      ]);
      const byRef = new Map(found.map((c) => [c.id, c]));
      const byId = new Map(owners.map((i) => [i.id, i]));
      for (const l of touched) {
        const c = byRef.get(l.contact_ref!);
        // A test delivery's contact is in no figure.
        if (c?.test === true) continue;
        const integration = l.integration_id !== null ? byId.get(l.integration_id) : undefined;
        const body: Omit<SendEvent, keyof EventEnvelope> = {
          channel: 'sms',
          funnelId: c?.funnel_id ?? integration?.funnel_id ?? null,
          contactId: l.contact_id ?? '',
          email: c?.email ?? null,
          phone: l.phone,
          integrationId: l.integration_id,
          campaignId: integration?.sms_campaign_id ?? null,
          templateId: l.template_id,
          step: l.sequence_order,
          messageId: l.message_sid,
          // A holdout mark is one per contact and campaign: a repeat of it is the same mark.
          sendId: isHoldout(l) ? `holdout:${integration?.sms_campaign_id ?? 0}:${l.contact_ref}` : `twilio:${l.message_sid}`,
          sentAt: new Date(l.timestamp).toISOString(),
          ...(l.variant ? { variant: l.variant } : {}),
          ...(isHoldout(l) ? { holdout: true } : {}),
        };
        await outbox.add(Subjects.smsSent, { ...body });
      }
    } catch (err) {
      logger.warn({ err }, 'send.sms.sent not published: this message is missing from recovered-revenue attribution');
    }
  }
}
