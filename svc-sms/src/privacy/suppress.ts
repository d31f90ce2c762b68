import type { Connection } from 'mongoose';
import { erasedPhone, type ErasePerson } from '@act/service-kit';
import { optOutModel } from '../contacts/model';

/**
 * Erase: the hashed opt-out entry of each of the person's numbers, whether they had opted out or not (an
 * erased person is never texted again; every opt-out check also looks for this form). Returns how many were added
 * (0 when all were there: an erase run twice adds nothing). An upsert of a plain document: safe on redelivery.
 */
export async function optOutErased(conn: Connection, person: ErasePerson, now = new Date()): Promise<number> {
  let added = 0;
  for (const phone of person.phones) {
    const key = erasedPhone(phone);
    if (!key) continue;
    const r = await optOutModel(conn).collection.updateOne(
      { phone: key },
      { $setOnInsert: { keyword: 'ERASED', opted_out_at: now } },
      { upsert: true },
    );
    added += r.upsertedCount;
  }
  return added;
}
