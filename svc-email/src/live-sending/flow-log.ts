import type { NewEmailLog } from '../email-logs/service';
import type { EmailWork } from './work';

/** The statuses of a flow's own log rows: the timeline titles them (timeline/entries.ts). */
export const SEQUENCE_RESTARTED = 'sequence_restarted';
export const SEQUENCE_EXITED = 'sequence_exited';

/**
 * A log row saying what became of the contact's flow, and why (the exit rule's reason). `key` makes it once per
 * event: a burst done again after a crash writes none twice.
 */
export function flowLog(w: EmailWork, status: typeof SEQUENCE_RESTARTED | typeof SEQUENCE_EXITED, reason: string, key: string, at: Date): NewEmailLog {
  const c = w.contact!;
  return {
    key: `${status}:${key}:${c.id}`,
    contact_id: c.contact_id,
    contact_ref: c.id,
    email: c.email,
    message: reason,
    status,
    timestamp: at,
  };
}
