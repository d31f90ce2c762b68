import type { EmailLogsService } from '../email-logs/service';

/** A contact this instance has just moved pending → sent: it alone may send (or log) its reminder. */
export interface ClaimedContact {
  id: number;
  contact_id: string;
  email: string;
  integration_id: number | null;
}

/**
 * The send step, behind one small interface so part 2 can plug in live Resend sends (campaign templates,
 * unsubscribe list) without touching the claim logic. Called only with contacts this instance won.
 */
export interface ReminderSender {
  send(contacts: ClaimedContact[]): Promise<void>;
}

/** The log key of a contact's reminder: one reminder log per contact, however often its send is retried. */
export function reminderLogKey(contactRef: number): string {
  return `reminder:${contactRef}`;
}

export function wouldSendMessage(email: string): string {
  return `Abandoned cart reminder would be sent to ${email}`;
}

/** Phase 1 (spec): no email leaves; a `would_send` log entry per reminder. */
export class WouldSendSender implements ReminderSender {
  constructor(private readonly logs: EmailLogsService) {}

  async send(contacts: ClaimedContact[]): Promise<void> {
    await this.logs.addMany(
      contacts.map((c) => ({ key: reminderLogKey(c.id), contact_id: c.contact_id, contact_ref: c.id, email: c.email, message: wouldSendMessage(c.email), status: 'would_send' })),
    );
  }
}
