import { escapeRegex, phoneDigitsPattern, textMentioning, type PersonalData } from '@act/service-kit';

/** What the SMS side holds about one person: what a privacy export lists. */
export const SMS_HOLDINGS: PersonalData[] = [
  {
    kind: 'contacts',
    collection: 'sms_contacts',
    filter: ({ email, phone }) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      const or = [...(digits ? [{ phone: { $regex: digits } }] : []), ...(email ? [{ email: { $regex: `^${escapeRegex(email)}$`, $options: 'i' } }] : [])];
      return or.length ? { $or: or } : null;
    },
  },
  {
    kind: 'sms_logs',
    collection: 'sms_logs',
    filter: ({ phone }, found) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      const refs = (found.contacts ?? []).map((c) => c.id);
      const or = [...(digits ? [{ phone: { $regex: digits } }] : []), ...(refs.length ? [{ contact_ref: { $in: refs } }] : [])];
      return or.length ? { $or: or } : null;
    },
  },
  {
    kind: 'webhook_deliveries',
    collection: 'sms_webhook_events',
    filter: ({ email, phone }) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      const or = [...(email ? [textMentioning('payload', email)] : []), ...(digits ? [{ payload: { $regex: digits } }] : [])];
      return or.length ? { $or: or } : null;
    },
  },
  {
    kind: 'opt_outs',
    collection: 'sms_opt_outs',
    filter: ({ phone }) => {
      const digits = phone ? phoneDigitsPattern(phone) : null;
      return digits ? { phone: { $regex: digits } } : null;
    },
  },
];
