import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Collection, ObjectId } from 'mongodb';
import { normalizeCart, type Cart } from '@act/contracts/src/cart';
import type { Logger } from '@act/service-kit';

/** Marks the move done in the service's `migrations` collection, so later starts read one document. */
const MIGRATION_ID = 'sms-contact-links-onto-carts';

interface LinkRow {
  _id: ObjectId;
  checkout_url?: string | null;
  cart?: Cart | null;
  updated_at?: Date;
  created_at?: Date;
}

/**
 * At start, once: a contact's checkout link that earlier versions kept on the contact (`checkout_url`) moves onto its
 * cart, where the sends, previews and the email side read it; a cart that names a link of its own keeps it (the
 * sender's newer word). The field leaves every contact. 500 at a time in `_id` order (the `_id` index walks the
 * collection once); two instances starting at once write the same.
 */
export async function moveContactLinksOntoCarts(conn: Connection, logger: Logger): Promise<number> {
  const migrations = conn.db!.collection<{ _id: string; at: Date }>('migrations');
  if (await migrations.findOne({ _id: MIGRATION_ID })) return 0;
  const contacts = conn.db!.collection<LinkRow>('sms_contacts') as Collection<LinkRow>;
  let moved = 0;
  let after: ObjectId | null = null;
  for (;;) {
    const batch: LinkRow[] = await contacts
      .find(
        { checkout_url: { $exists: true }, ...(after ? { _id: { $gt: after } } : {}) },
        { projection: { _id: 1, checkout_url: 1, cart: 1, updated_at: 1, created_at: 1 }, sort: { _id: 1 }, limit: 500 },
      )
      .toArray();
    if (batch.length === 0) break;
    after = batch[batch.length - 1]._id;
    const ops: AnyBulkWriteOperation<LinkRow>[] = batch.map((row) => {
      const filter = { _id: row._id, checkout_url: { $exists: true } };
      const url = typeof row.checkout_url === 'string' ? row.checkout_url : null;
      if (url && row.cart && !row.cart.recovery_url) {
        const link = normalizeCart({ recoveryUrl: url }, new Date()).cart?.recovery_url ?? null;
        if (link) {
          moved++;
          return { updateOne: { filter, update: { $set: { 'cart.recovery_url': link }, $unset: { checkout_url: '' } } } };
        }
      }
      if (url && !row.cart) {
        const cart = normalizeCart({ recoveryUrl: url }, row.updated_at ?? row.created_at ?? new Date()).cart;
        if (cart) {
          moved++;
          return { updateOne: { filter, update: { $set: { cart }, $unset: { checkout_url: '' } } } };
        }
      }
      return { updateOne: { filter, update: { $unset: { checkout_url: '' } } } };
    });
    await contacts.bulkWrite(ops, { ordered: false });
  }
  await migrations.updateOne({ _id: MIGRATION_ID }, { $set: { at: new Date() } }, { upsert: true });
  if (moved) logger.info({ moved }, 'checkout links moved onto their contacts\' carts');
  return moved;
}
