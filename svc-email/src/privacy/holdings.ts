import { escapeRegex, phoneDigitsPattern, textMentioning, type PersonalData } from '@act/service-kit';

const exactly = (text: string) => ({ $regex: `^${escapeRegex(text)}$`, $options: 'i' });
const idsOf = (rows: { id?: unknown }[] | undefined) => (rows ?? []).map((r) => r.id);

/** What the email side holds about one person: what a privacy export lists. */
export const EMAIL_HOLDINGS: PersonalData[] = [
  {
    kind: 'contacts',
    collection: 'contacts',
    filter: ({ email, phone }) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      const or = [...(email ? [{ email_lower: email.toLowerCase() }] : []), ...(digits ? [{ phone: { $regex: digits } }] : [])];
      return or.length ? { $or: or } : null;
    },
  },
  { kind: 'email_logs', collection: 'email_logs', filter: ({ email }) => (email ? { email: exactly(email) } : null) },
  {
    kind: 'sequence_steps',
    collection: 'email_sequence_steps',
    filter: (_s, found) => (found.contacts?.length ? { contact_ref: { $in: idsOf(found.contacts) } } : null),
  },
  {
    kind: 'webhook_deliveries',
    collection: 'webhook_events',
    filter: ({ email, phone }) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      const or = [...(email ? [textMentioning('payload', email)] : []), ...(digits ? [{ payload: { $regex: digits } }] : [])];
      return or.length ? { $or: or } : null;
    },
  },
  { kind: 'unsubscribes', collection: 'email_unsubscribes', filter: ({ email }) => (email ? { email: email.toLowerCase() } : null) },
];
