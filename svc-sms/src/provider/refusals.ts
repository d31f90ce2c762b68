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
