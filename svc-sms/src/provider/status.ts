import type { Connection } from 'mongoose';
import { twilioStatusMessage, type ProviderStatusResponse } from '@act/contracts/src/provider-status';
import { contactModel } from '../contacts/model';

/**
 * Whether Twilio is configured and, when it is not, how many contacts' steps are due and wait for it (their next
 * step's time has come: served by the `next_at` index). Configuration only: sending is the sequences' job.
 */
export async function twilioStatus(conn: Connection, configured: boolean, now: Date): Promise<ProviderStatusResponse> {
  const waiting = configured ? 0 : await contactModel(conn).collection.countDocuments({ next_at: { $lte: now }, test: { $ne: true } });
  return { provider: 'twilio', configured, waiting, ...twilioStatusMessage(configured, waiting) };
}
