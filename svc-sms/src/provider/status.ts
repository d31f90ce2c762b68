import type { Connection } from 'mongoose';
import { twilioStatusMessage, type ProviderStatusResponse } from '@act/contracts/src/provider-status';
import { TEST_DELIVERY_PHONE } from '@act/contracts/src/test-delivery';
import { contactModel } from '../contacts/model';

/**
 * Whether Twilio is configured and, when it is not, how many contacts' steps are due and wait for it (their next
 * step's time has come: served by the `next_at` index). Configuration only: sending is the sequences' job.
 */
export async function twilioStatus(conn: Connection, configured: boolean, now: Date): Promise<ProviderStatusResponse> {
  const waiting = configured ? 0 : await contactModel(conn).collection.countDocuments({ next_at: { $lte: now }, phone: { $ne: TEST_DELIVERY_PHONE } });
  return { provider: 'twilio', configured, waiting, ...twilioStatusMessage(configured, waiting) };
}
