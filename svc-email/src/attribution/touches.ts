import type { Collection } from 'mongodb';
import type { Logger, Outbox } from '@act/service-kit';
import { Subjects, type EventEnvelope, type SendEvent } from '@act/contracts';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogObserver } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';

/** A reminder that reached the contact, or (live sending off) would have: attribution's touch, the latter marked simulated. */
const TOUCH_STATUSES = new Set(['sent', 'would_send', 'held_out']);

/**
 * Publishes `send.email.sent` for each reminder log, through the outbox (both ledgers, this one included, take it
 * from the stream). A failure here is logged and never fails or slows the send it follows: the reminder went out either way.
 */
export function emailTouchPublisher({ outbox, contacts, integrations, logger }: { outbox: Outbox; contacts: Collection<ContactDoc>; integrations: IntegrationCache; logger: Logger }): EmailLogObserver {
  return async (entries, at) => {
    const touched = entries.filter((e) => TOUCH_STATUSES.has(e.status));
    if (touched.length === 0) return;
    // Not awaited: two more round trips per send held each send slot longer, and fewer emails then fell due
    // together into one Resend batch call. The outbox row follows the log within milliseconds.
    void publish(touched, at);
  };

  async function publish(touched: Parameters<EmailLogObserver>[0], at: Date): Promise<void> {
    try {
      const refs = [...new Set(touched.map((e) => e.contact_ref))];
      const found = await contacts.find({ id: { $in: refs } }, { projection: { _id: 0, id: 1, phone: 1, integration_id: 1, test: 1 } }).toArray();
      const byRef = new Map(found.map((c) => [c.id, c]));
      const bodies: Omit<SendEvent, keyof EventEnvelope>[] = [];
      for (const e of touched) {
        const c = byRef.get(e.contact_ref);
        // A test delivery's contact is in no figure.
        if (c?.test === true) continue;
        const integrationId = e.touch?.integration_id ?? c?.integration_id ?? null;
        const integration = await integrations.byId(integrationId);
        const body: Omit<SendEvent, keyof EventEnvelope> = {
          channel: 'email',
          funnelId: integration?.funnel_id ?? null,
          contactId: e.contact_id,
          email: e.email,
          phone: c?.phone ?? null,
          integrationId,
          campaignId: e.touch?.campaign_id ?? null,
          templateId: e.touch?.template_id ?? null,
          step: e.touch?.step ?? null,
          messageId: e.message_id ?? null,
          sendId: e.key ?? (e.message_id ? `resend:${e.message_id}` : null),
          sentAt: (e.timestamp ?? at).toISOString(),
          simulated: e.status === 'would_send',
          ...(e.touch?.variant ? { variant: e.touch.variant } : {}),
          // The control group's mark: no send, measured beside the reminded (experiments).
          ...(e.status === 'held_out' ? { holdout: true } : {}),
        };
        bodies.push(body);
      }
      // Side by side: the outbox writes the adds waiting together in one insert (a burst's hundred sends were a
      // hundred inserts one after another).
      await Promise.all(bodies.map((body) => outbox.add(Subjects.emailSent, { ...body })));
    } catch (err) {
      logger.warn({ err }, 'send.email.sent not published: this reminder is missing from recovered-revenue attribution');
    }
  }
}
