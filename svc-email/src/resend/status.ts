import type { Connection } from 'mongoose';
import { resendStatusMessage, type ProviderStatusResponse } from '@act/contracts/src/provider-status';
import { sequenceStepModel } from '../live-sending/model';
import type { ResendProvider } from '../providers/resend';

/**
 * Whether Resend is configured (the environment's values, else the stored ones) and, when it is not and live sending
 * is on, how many campaign steps are due and wait for it (served by the steps' `state, due_at` index). While live
 * sending is off nothing waits: reminders are only logged, and the page says so.
 */
export async function resendStatus(conn: Connection, provider: ResendProvider, liveSending: boolean, now = new Date()): Promise<ProviderStatusResponse> {
  const { configured } = await provider.status();
  const waiting = configured || !liveSending ? 0 : await sequenceStepModel(conn).collection.countDocuments({ state: 'waiting', due_at: { $lte: now } });
  return { provider: 'resend', configured, waiting, simulated: !liveSending, ...resendStatusMessage(configured, waiting, !liveSending) };
}
