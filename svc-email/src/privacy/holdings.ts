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
  personOf,
  phoneDigitsPattern,
  scrubText,
  mentioning,
  type PersonalData,
} from '@act/service-kit';

const exactly = (text: string) => ({ $regex: `^${escapeRegex(text)}$`, $options: 'i' });
const idsOf = (rows: { id?: unknown }[] | undefined) => (rows ?? []).map((r) => r.id);
const digitsOf = (phone: string) => {
  const d = phoneDigitsPattern(phone);
  return d ? { $regex: d } : null;
};
/** An address kept where the field is required: its erased form (the same one the unsubscribe list holds). */
const erasedOr = (v: unknown) => (typeof v === 'string' && v ? (erasedEmail(v) ?? v) : v);

/**
 * What the email side holds about one person: what a privacy export lists and an erase anonymises. Contacts, logs
 * and sequences stay (the Dashboard and statistics count them) with nothing left that names the person; raw webhook
 * bodies keep their row and lose their body; checkout links are removed; the unsubscribe entry in clear is removed
 * (erase puts the hashed one in its place: UnsubscribeService.addErased).
 */
export const EMAIL_HOLDINGS: PersonalData[] = [
  {
    kind: 'contacts',
    collection: 'contacts',
    filter: ({ email, phone }) => {
      const digits = phone ? digitsOf(phone) : null;
      const or = [...(email ? [{ email_lower: email.toLowerCase() }] : []), ...(digits ? [{ phone: digits }] : [])];
      return or.length ? { $or: or } : null;
    },
    erase: (c) => ({
      $set: {
        email: erasedOr(c.email),
        email_lower: erasedOr(c.email),
        phone: typeof c.phone === 'string' && c.phone ? erasedPhone(c.phone) : null,
        first_name: null,
        ...(c.cart ? { cart: erasedCart(c.cart) } : {}),
        // Where the sender said the person lives (country, state, locale) goes with the rest of them.
        zone_hints: null,
        contact_id: erasedContactId(String(c.contact_id)),
      },
    }),
  },
  {
    kind: 'email_logs',
    collection: 'email_logs',
    filter: (s, found) => {
      const p = personOf(s, found);
      const refs = idsOf(found.contacts);
      const or = [...p.emails.map((e) => ({ email: exactly(e) })), ...(refs.length ? [{ contact_ref: { $in: refs } }] : [])];
      return or.length ? { $or: or } : null;
    },
    erase: (l, person) => ({
      $set: {
        email: erasedOr(l.email),
        contact_id: erasedContactId(String(l.contact_id)),
        message: scrubText(String(l.message ?? ''), person),
      },
    }),
  },
  {
    kind: 'sequence_steps',
    collection: 'email_sequence_steps',
    filter: (_s, found) => (found.contacts?.length ? { contact_ref: { $in: idsOf(found.contacts) } } : null),
    erase: (st) => ({ $set: { contact_id: erasedContactId(String(st.contact_id)) } }),
  },
  {
    // The provider's refusal text may quote the address.
    kind: 'send_claims',
    collection: 'email_send_claims',
    filter: (_s, found) => (found.contacts?.length ? { contact_ref: { $in: idsOf(found.contacts) } } : null),
    erase: (c, person) => (typeof c.error === 'string' && scrubText(c.error, person) !== c.error ? { $set: { error: scrubText(c.error, person) } } : null),
  },
  {
    kind: 'webhook_deliveries',
    collection: 'webhook_events',
    filter: (s, found) => mentioning('payload', personOf(s, found)),
    // Whom the delivery named (the timeline's keys) goes with the body.
    erase: (_d, person) => ({ $set: { payload: erasedPayload(person.requestId) }, $unset: { person_keys: '' } }),
  },
  {
    kind: 'unsubscribes',
    collection: 'email_unsubscribes',
    filter: (s, found) => anyOf(personOf(s, found).emails, (e) => ({ email: e.toLowerCase() })),
    erase: () => 'delete',
  },
  TRACKED_LINK_HOLDINGS,
  ...LEDGER_HOLDINGS,
];
