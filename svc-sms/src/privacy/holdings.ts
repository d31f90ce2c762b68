import {
  anyOf,
  erasedCart,
  erasedContactId,
  erasedEmail,
  erasedPayload,
  erasedPhone,
  escapeRegex,
  LEDGER_HOLDINGS,
  TRACKED_LINK_HOLDINGS,
  mentioning,
  personOf,
  phoneDigitsPattern,
  scrubText,
  type PersonalData,
} from '@act/service-kit';

const digitsOf = (phone: string) => {
  const d = phoneDigitsPattern(phone);
  return d ? { phone: { $regex: d } } : null;
};
/** A number kept where the field is required: its erased form (the one the opt-out list holds, so checks still stop it). */
const erasedOr = (v: unknown) => (typeof v === 'string' && v ? (erasedPhone(v) ?? v) : v);

/**
 * What the SMS side holds about one person: what a privacy export lists and an erase anonymises. Contacts and logs
 * stay (SMS Statistics counts the logs) with nothing left that names the person, and an erased contact's sequence is
 * closed; raw webhook bodies keep their row and lose their body; phone claims are removed; the opt-out entry in clear
 * is removed (erase puts the hashed one in its place, see ./suppress.ts).
 */
export const SMS_HOLDINGS: PersonalData[] = [
  {
    kind: 'contacts',
    collection: 'sms_contacts',
    filter: ({ email, phone }) => {
      const digits = phone ? digitsOf(phone) : null;
      const or = [...(digits ? [digits] : []), ...(email ? [{ email: { $regex: `^${escapeRegex(email)}$`, $options: 'i' } }] : [])];
      return or.length ? { $or: or } : null;
    },
    erase: (c) => ({
      $set: {
        phone: erasedOr(c.phone),
        email: typeof c.email === 'string' && c.email ? erasedEmail(c.email) : null,
        first_name: null,
        ...(c.cart ? { cart: erasedCart(c.cart) } : {}),
        // Where the sender said the person lives (country, state, locale) goes with the rest of them.
        zone_hints: null,
        contact_id: erasedContactId(String(c.contact_id)),
        // Nothing more is sent: the sequence ends here (its status, which the pages count, stays as it was).
        next_at: null,
        held_until: null,
      },
    }),
  },
  {
    kind: 'sms_logs',
    collection: 'sms_logs',
    filter: (s, found) => {
      const refs = (found.contacts ?? []).map((c) => c.id);
      const or = [...personOf(s, found).phones.map(digitsOf).filter((d) => d !== null), ...(refs.length ? [{ contact_ref: { $in: refs } }] : [])];
      return or.length ? { $or: or } : null;
    },
    // The message as sent carried the first name and the checkout link: only its length would be left, so none of it.
    erase: (l, person) => ({
      $set: {
        phone: erasedOr(l.phone),
        contact_id: typeof l.contact_id === 'string' ? erasedContactId(l.contact_id) : (l.contact_id ?? null),
        message: '[erased]',
        // A provider's refusal may quote the number.
        error_message: typeof l.error_message === 'string' ? scrubText(l.error_message, person) : (l.error_message ?? null),
      },
    }),
  },
  {
    kind: 'phone_claims',
    collection: 'sms_phone_claims',
    filter: (s, found) => anyOf(personOf(s, found).phones, (p) => digitsOf(p)),
    erase: () => 'delete',
  },
  {
    kind: 'webhook_deliveries',
    collection: 'sms_webhook_events',
    filter: (s, found) => mentioning('payload', personOf(s, found)),
    // Whom the delivery named (the timeline's keys) goes with the body.
    erase: (_d, person) => ({ $set: { payload: erasedPayload(person.requestId) }, $unset: { person_keys: '' } }),
  },
  {
    // A contact kept for an SMS integration not yet made: removed, so no integration made later picks the person up.
    kind: 'earlier_contacts',
    collection: 'sms_earlier_contacts',
    filter: (s, found) => {
      const person = personOf(s, found);
      const or = [
        ...person.phones.map(digitsOf).filter((f): f is NonNullable<typeof f> => f !== null),
        ...person.emails.map((e) => ({ email: { $regex: `^${escapeRegex(e)}$`, $options: 'i' } })),
      ];
      return or.length ? { $or: or } : null;
    },
    erase: () => 'delete',
  },
  {
    kind: 'opt_outs',
    collection: 'sms_opt_outs',
    filter: (s, found) => anyOf(personOf(s, found).phones, (p) => digitsOf(p)),
    erase: () => 'delete',
  },
  TRACKED_LINK_HOLDINGS,
  ...LEDGER_HOLDINGS,
];
