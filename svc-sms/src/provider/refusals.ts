import type { Model } from 'mongoose';
import type { Logger } from '@act/service-kit';
import type { OptOutDoc } from '../contacts/model';
import type { Clock } from '../settings';

/** Twilio error codes a send can meet that mean "this number, not this attempt" (docs: Twilio error dictionary). */
export const TWILIO_UNSUBSCRIBED = 21610; // the recipient replied STOP to this sender
export const TWILIO_INVALID_TO = 21211; // not a valid phone number
export const TWILIO_NOT_MOBILE = 21614; // not a mobile number (cannot receive SMS)

/** What our side did about it, said after Twilio's own text. */
const CONSEQUENCE: Record<number, string> = {
  [TWILIO_UNSUBSCRIBED]: 'the recipient replied STOP to this sender; the number is now on the opt-out list',
};

/** The reason a log row shows for a failed send: Twilio's code and own text (and what we did), or the error's. */
export function sendFailureMessage(err: unknown): string {
  const e = err as { message?: string; code?: unknown };
  const text = e?.message || 'Twilio refused the message';
  if (typeof e?.code !== 'number') return e?.message || 'Send failed';
  const then = CONSEQUENCE[e.code];
  return `Twilio error ${e.code}: ${text}${then ? ` (${then})` : ''}`;
}

export const isUnsubscribedRefusal = (err: unknown): boolean => (err as { code?: unknown })?.code === TWILIO_UNSUBSCRIBED;

/**
 * Twilio refused a send with 21610: the number replied STOP to our sender, maybe before we heard of it (the reply
 * was lost, or came while the service was down). The number joins the opt-out list as if the STOP had reached us,
 * so no later step, contact or test message tries it again. The one place every send path (sequence steps, the
 * test SMS) turns that answer into an opt-out; true when it did. An entry already there (a STOP, an erase) is kept.
 */
export async function optOutOnRefusal(
  deps: { OptOut: Model<OptOutDoc>; now: Clock; logger?: Logger },
  phone: string,
  err: unknown,
): Promise<boolean> {
  if (!isUnsubscribedRefusal(err)) return false;
  await deps.OptOut.updateOne(
    { phone },
    { $setOnInsert: { keyword: 'TWILIO_21610', opted_out_at: deps.now() } },
    { upsert: true },
  );
  deps.logger?.info({ phone }, 'Twilio says the phone opted out (21610): added to the opt-out list');
  return true;
}
