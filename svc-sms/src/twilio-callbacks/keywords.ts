/**
 * Twilio's default keyword sets for long codes (docs: "Twilio support for opt-out keywords", Advanced Opt-Out):
 * the whole message is the keyword, in any case. Punctuation and spacing around it are ignored (" Stop. " is STOP),
 * as a person typing it expects.
 */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'];
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'];
export const HELP_KEYWORDS = ['HELP', 'INFO'];

export type InboundIntent = 'opt_out' | 'opt_in' | 'help';

/** The keyword a message is, if it is one: letters only, upper case. */
export function keywordOf(body: string): string {
  return body.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
}

/**
 * What an inbound message asks for. With Advanced Opt-Out, Twilio sends `OptOutType` (STOP, START or HELP) for a
 * message matching the service's own, possibly localised, keywords: that decides, whatever the text.
 */
export function intentOf(body: string, optOutType?: string): { intent: InboundIntent | null; keyword: string } {
  const type = (optOutType ?? '').trim().toUpperCase();
  const keyword = keywordOf(body);
  if (type === 'STOP') return { intent: 'opt_out', keyword: keyword || 'STOP' };
  if (type === 'START') return { intent: 'opt_in', keyword: keyword || 'START' };
  if (type === 'HELP') return { intent: 'help', keyword: keyword || 'HELP' };
  if (OPT_OUT_KEYWORDS.includes(keyword)) return { intent: 'opt_out', keyword };
  if (OPT_IN_KEYWORDS.includes(keyword)) return { intent: 'opt_in', keyword };
  if (HELP_KEYWORDS.includes(keyword)) return { intent: 'help', keyword };
  return { intent: null, keyword };
}
