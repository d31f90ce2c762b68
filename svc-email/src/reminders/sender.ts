import type { NewEmailLog } from '../email-logs/service';

/** A contact whose reminder the flow's first step has claimed (pending → sent): only that step logs its reminder. */
export interface ClaimedContact {
  id: number;
  contact_id: string;
  email: string;
  integration_id: number | null;
  /** Why no reminder may go (set at intake, e.g. the shopper declined promotional messages). */
  reminders_held?: string | null;
  /** A "Send test delivery" sample's contact (stored at intake). */
  test?: boolean;
}

/** The reason a contact's reminder and sequence steps are held (its held reason, or a test delivery), else null. */
export function heldReason(c: { reminders_held?: string | null; test?: boolean }): string | null {
  if (c.reminders_held) return c.reminders_held;
  return c.test === true ? 'test delivery' : null;
}

export function heldMessage(email: string, reason: string): string {
  return `Not sent: reminders held for ${email} (${reason})`;
}

/** A held contact's reminder log: says why, neither sent nor simulated (no touch, in no count). */
export function heldEntry(c: ClaimedContact): NewEmailLog {
  return { key: reminderLogKey(c.id), contact_id: c.contact_id, contact_ref: c.id, email: c.email, message: heldMessage(c.email, heldReason(c)!), status: 'held' };
}

/** The log key of a contact's reminder: one reminder log per contact, however often its step is retried. */
export function reminderLogKey(contactRef: number): string {
  return `reminder:${contactRef}`;
}

export function wouldSendMessage(email: string): string {
  return `Abandoned cart reminder would be sent to ${email}`;
}

export function unsubscribedMessage(email: string): string {
  return `Not sent: ${email} is on the unsubscribe list`;
}
