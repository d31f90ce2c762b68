import { isTestDeliveryEmail } from '@act/contracts/src/test-delivery';
import type { EmailLogsService, NewEmailLog } from '../email-logs/service';

/** A contact this instance has just moved pending → sent: it alone may send (or log) its reminder. */
export interface ClaimedContact {
  id: number;
  contact_id: string;
  email: string;
  integration_id: number | null;
  /** Why no reminder may go (set at intake, e.g. the shopper declined promotional messages). */
  reminders_held?: string | null;
}

/**
 * The send step, behind one small interface so part 2 can plug in live Resend sends (campaign templates,
 * unsubscribe list) without touching the claim logic. Called only with contacts this instance won.
 */
export interface ReminderSender {
  send(contacts: ClaimedContact[]): Promise<void>;
  /** Logs why these claimed contacts get no reminder (heldReason): nothing sent or simulated. */
  held(contacts: ClaimedContact[]): Promise<void>;
}

/** The reason a contact's reminder and sequence steps are held (its held reason, or a test delivery), else null. */
export function heldReason(c: { email: string; reminders_held?: string | null }): string | null {
  if (c.reminders_held) return c.reminders_held;
  return isTestDeliveryEmail(c.email) ? 'test delivery' : null;
}

export function heldMessage(email: string, reason: string): string {
  return `Not sent: reminders held for ${email} (${reason})`;
}

/** A held contact's reminder log: says why, neither sent nor simulated (no touch, in no count). */
export function heldEntry(c: ClaimedContact): NewEmailLog {
  return { key: reminderLogKey(c.id), contact_id: c.contact_id, contact_ref: c.id, email: c.email, message: heldMessage(c.email, heldReason(c)!), status: 'held' };
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

  async held(contacts: ClaimedContact[]): Promise<void> {
    await this.logs.addMany(contacts.map(heldEntry));
  }
}
