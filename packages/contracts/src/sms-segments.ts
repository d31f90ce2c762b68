/**
 * SMS segments as carriers count them (sms-segments-calculator, Twilio's: GSM-7 with its extension characters
 * `€ [ ] { } ~ ^ | \` counted as two, UCS-2 as soon as one character is outside GSM-7, 160 / 153 or 70 / 67 per
 * segment), and the rule that keeps a filled-in message within the segments its template was written for.
 * Shared by the SMS editor (what it shows) and svc-sms (what it sends).
 */
import { SegmentedMessage } from 'sms-segments-calculator';
import { keptOnce } from './kept-once';
import { TYPICAL_MESSAGE_INPUT, type MessageInput } from './message-variables';
import { renderSmsTemplate, smsValuesOf, type SmsPlaceholderKey } from './sms-api';

export interface SmsSegments {
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  /** In the encoding's units: a GSM-7 extension character counts 2, a UCS-2 character outside the BMP 2. */
  units: number;
}

/**
 * GSM 03.38's basic character set, one septet each, without CR (the library reads CR LF as one grapheme: such text
 * goes to it). Text made of these alone is counted here: 160 in one segment, then 153 a segment, as the library
 * counts it; anything else (an extension character, UCS-2) is counted by the library.
 */
const GSM7_BASIC = new Set(
  Array.from(
    '@£$¥èéùìòÇ\nØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
  ),
);

/** Counted without the library when every character is in GSM-7's basic set (the library splits graphemes first). */
function basicGsm7Segments(text: string): SmsSegments | null {
  if (text.length === 0) return null;
  for (let i = 0; i < text.length; i++) if (!GSM7_BASIC.has(text[i]!)) return null;
  return { segments: text.length <= 160 ? 1 : Math.ceil(text.length / 153), encoding: 'GSM-7', units: text.length };
}

export function smsSegments(text: string): SmsSegments {
  const basic = basicGsm7Segments(text);
  if (basic) return basic;
  const m = new SegmentedMessage(text);
  return { segments: m.segmentsCount, encoding: m.encodingName, units: m.numberOfCharacters };
}

/** Typical segments by template: every send of a step asks for its template's budget. */
const typicalOf = keptOnce(500, (template) => smsSegments(renderSmsTemplate(template, smsValuesOf(TYPICAL_MESSAGE_INPUT))));

/** The segments of a template's typical filled-in message: what the editor shows, and the budget a send keeps to. */
export function typicalSmsSegments(template: string): SmsSegments {
  return { ...typicalOf(template) };
}

export interface FittedSms {
  message: string;
  segments: SmsSegments;
  /** The first item's name was cut to keep the message within the template's segments. */
  shortened: boolean;
}

const ELLIPSIS = '...';
const TRAILING = new Set([' ', '\t', '\n', ',', '.', ':', ';', '-', '\u2013', '\u2014', '/']);

/** The first `n` characters, without the spaces and punctuation they would end on before the ellipsis. */
function cutAt(chars: string[], n: number): string {
  let end = n;
  while (end > 0 && TRAILING.has(chars[end - 1]!)) end--;
  return chars.slice(0, end).join('');
}

/** Stands where the item name was while its place is tidied (a private-use character no template writes). */
const LEFT_OUT = '\uE000';

/**
 * The message with the item name left out: the template's fallback for it when it writes one, else nothing, and the
 * space before the name goes with it ("your {{firstItemName}} ({{cartTotal}})" reads "your ($12.00)", not
 * "your  ($12.00)"); at the start of the message or of a line it is the space after.
 */
function withoutItem(template: string, values: Record<SmsPlaceholderKey, string | null>): string {
  const plain = renderSmsTemplate(template, { ...values, first_item_name: null });
  const marked = renderSmsTemplate(template, { ...values, first_item_name: LEFT_OUT });
  // A fallback of the template's own took the name's place: that text stands as written.
  if (marked.split(LEFT_OUT).join('') !== plain) return plain;
  const chars = Array.from(marked);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== LEFT_OUT) {
      out.push(chars[i]!);
      continue;
    }
    const before = out[out.length - 1];
    const next = chars[i + 1];
    const lineStart = before === undefined || before === '\n';
    if (before === ' ' && (next === undefined || /[\s,.;:!?)]/.test(next))) out.pop();
    else if (lineStart && next === ' ') i++;
  }
  return out.join('');
}

/**
 * One contact's SMS: the template filled in with this contact's values. When that message takes more segments than
 * the template's typical one (a long product name, a name outside GSM-7), the first item's name is shortened until it
 * fits, else left out (the template's fallback for it, if any); a link, the code, the name and the total are never cut:
 * still too long without the item name, it is sent longer (the link and the code matter more than a segment).
 */
export function fitSmsMessage(template: string, input: MessageInput): FittedSms {
  const values = smsValuesOf(input);
  const full = renderSmsTemplate(template, values);
  const fullSegments = smsSegments(full);
  const budget = Math.max(1, typicalSmsSegments(template).segments);
  const item = values.first_item_name;
  if (fullSegments.segments <= budget || !item) return { message: full, segments: fullSegments, shortened: false };
  const chars = Array.from(item);
  const withItem = (n: number): string => {
    if (n === 0) return withoutItem(template, values);
    const name = n >= chars.length ? item : cutAt(chars, n) + ELLIPSIS;
    return renderSmsTemplate(template, { ...values, first_item_name: name } as Record<SmsPlaceholderKey, string | null>);
  };
  // Longest prefix that fits (the segment count never falls as the name grows); none fits: the name is left out.
  let lo = 0;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (smsSegments(withItem(mid)).segments <= budget) lo = mid;
    else hi = mid - 1;
  }
  const message = withItem(lo);
  return { message, segments: smsSegments(message), shortened: true };
}
