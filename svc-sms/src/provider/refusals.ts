/** Twilio error codes a send can meet that mean "this number, not this attempt" (docs: Twilio error dictionary). */
export const TWILIO_UNSUBSCRIBED = 21610; // the recipient replied STOP to this sender
export const TWILIO_INVALID_TO = 21211; // not a valid phone number
export const TWILIO_NOT_MOBILE = 21614; // not a mobile number (cannot receive SMS)

const EXPLAINED: Record<number, string> = {
  [TWILIO_UNSUBSCRIBED]: 'the recipient replied STOP to this sender and is now on the opt-out list',
  [TWILIO_INVALID_TO]: 'the phone number is not valid',
  [TWILIO_NOT_MOBILE]: 'the phone number is not a mobile number and cannot receive SMS',
};

/** The reason a log row shows for a failed send: Twilio's code and what it means, or the provider's own text. */
export function sendFailureMessage(err: unknown): string {
  const e = err as { message?: string; code?: unknown };
  const code = typeof e?.code === 'number' ? e.code : null;
  if (code !== null && EXPLAINED[code]) return `Twilio error ${code}: ${EXPLAINED[code]}`;
  if (code !== null) return `${e.message || 'Twilio refused the message'} (Twilio error ${code})`;
  return e?.message || 'Send failed';
}

export const isUnsubscribedRefusal = (err: unknown): boolean => (err as { code?: unknown })?.code === TWILIO_UNSUBSCRIBED;
