import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { Logger } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { EmailLogDoc } from '../email-logs/model';
import type { EmailLogObserver } from '../email-logs/service';

/** The one log status of an email Resend took for a shopper; `would_send` (live sending off) reached nobody. */
export const REALLY_SENT = 'sent';

/**
 * Whether and when an email really reached each contact, kept on the contact itself (`first_sent_at`, `clicked_at`)
 * so the revenue funnel is one aggregation over the contacts that came in within its range, in the database, rather
 * than every email log of the range read into the service per call.
 */
export function contactReach(contacts: Collection<ContactDoc>) {
  const contactClicked = async (contactRef: number, at: Date): Promise<void> => {
    await contacts.updateOne({ id: contactRef }, { $min: { clicked_at: at } });
  };
  return {
    /** After each batch of logs: the contacts Resend took an email for keep the earliest such time. */
    observer: (async (entries, at) => {
      const reached = new Map<number, Date>();
      for (const e of entries) {
        if (e.status !== REALLY_SENT) continue;
        const when = e.timestamp ?? at;
        const had = reached.get(e.contact_ref);
        if (!had || when < had) reached.set(e.contact_ref, when);
      }
      if (reached.size === 0) return;
      await contacts.bulkWrite(
        [...reached].map(([id, when]) => ({ updateOne: { filter: { id }, update: { $min: { first_sent_at: when } } } })),
        { ordered: false },
      );
    }) satisfies EmailLogObserver,

    /** A click Resend reported on the email `messageId`: its contact keeps the earliest click. */
    async clicked(logs: Collection<EmailLogDoc>, messageId: string, at: Date): Promise<void> {
      const log = await logs.findOne({ message_id: messageId }, { projection: { _id: 0, contact_ref: 1 } });
      if (log) await contactClicked(log.contact_ref, at);
    },

    /** A click on our own link in an email to this contact. */
    contactClicked,
  };
}

const BACKFILL_ID = 'contact_reach';

/**
 * Contacts stored before their reach was kept on them get it once from their email logs (a marker in `migrations`
 * says it ran). Started in the background: until it ends, older contacts count as not reminded.
 */
export async function backfillContactReach({ contacts, logs, migrations, logger }: { contacts: Collection<ContactDoc>; logs: Collection<EmailLogDoc>; migrations: Collection<{ _id: string; at: Date }>; logger: Logger }): Promise<number> {
  if (await migrations.findOne({ _id: BACKFILL_ID })) return 0;
  let updated = 0;
  let batch: AnyBulkWriteOperation<ContactDoc>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await contacts.bulkWrite(batch, { ordered: false });
    updated += batch.length;
    batch = [];
  };
  const cursor = logs.aggregate<{ _id: number; first: Date; clicked: Date | null }>([
    { $match: { status: REALLY_SENT } },
    { $group: { _id: '$contact_ref', first: { $min: '$timestamp' }, clicked: { $min: { $cond: [{ $eq: ['$delivery', 'clicked'] }, '$delivery_at', null] } } } },
  ]);
  for await (const r of cursor) {
    batch.push({ updateOne: { filter: { id: r._id }, update: { $min: { first_sent_at: r.first, ...(r.clicked ? { clicked_at: r.clicked } : {}) } } } });
    if (batch.length >= 1_000) await flush();
  }
  await flush();
  await migrations.updateOne({ _id: BACKFILL_ID }, { $set: { at: new Date() } }, { upsert: true });
  if (updated) logger.info({ contacts: updated }, 'kept on each contact when an email first reached it (from the email logs)');
  return updated;
}
