import type { Collection } from 'mongodb';
import type { ContactDoc } from '../contacts/model';
import type { PhoneMate, SmsWork } from './work';

const MATE = { _id: 0, id: 1, phone: 1, contact_id: 1, integration_id: 1, status: 1, purchased_at: 1, created_at: 1 } as const;

/**
 * Fills each work's `samePhone`: the contacts of its phone, every status, in one read of the burst's phones (the
 * `phone` index) for the works that have none yet. The exit rules (completed elsewhere, a campaign of higher
 * priority) each want some of them: the first to run reads, the one after finds them on the works.
 */
export async function readSamePhone(contacts: Collection<ContactDoc>, open: SmsWork[]): Promise<void> {
  const missing = open.filter((w) => !w.samePhone);
  if (missing.length === 0) return;
  const rows = (await contacts
    .find({ phone: { $in: [...new Set(missing.map((w) => w.c.phone))] } }, { projection: MATE })
    .toArray()) as unknown as PhoneMate[];
  const byPhone = new Map<string, PhoneMate[]>();
  for (const r of rows) byPhone.set(r.phone, [...(byPhone.get(r.phone) ?? []), r]);
  for (const w of missing) w.samePhone = byPhone.get(w.c.phone) ?? [];
}
