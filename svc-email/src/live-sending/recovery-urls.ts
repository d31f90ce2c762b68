import type { Connection } from 'mongoose';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import { normalizeCart, workingRecoveryUrl } from '@act/contracts/src/cart';
import type { Logger } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';

type LinkContact = Pick<ContactDoc, 'integration_id' | 'cart'>;

/**
 * The link a message's {{recoveryUrl}} takes. A contact's own link is its sender's, kept on its cart (written with the
 * contact, newest by the sender's own time, as the rest of the cart), so a send reads no more than the contact.
 */
export class RecoveryUrls {
  /**
   * @param deploymentFallback RECOVERY_URL_FALLBACK: a link for every integration without one of its own (unset:
   *   none, and a step needing a link for a contact without one is skipped)
   * @param integrationFallback an integration's own fallback link (its checkout_fallback_url)
   * @param sampleLink what a test email's {{recoveryUrl}} shows (PUBLIC_URL)
   */
  constructor(
    private readonly deploymentFallback: string | null,
    private readonly integrationFallback: (integrationId: number) => Promise<string | null>,
    private readonly sampleLink: string,
  ) {}

  /**
   * The contact's checkout link at `now`: its sender's own while it works, else its integration's fallback link,
   * else the deployment's; null when there is none (never an empty or made-up link).
   */
  async forContact(c: LinkContact, now: Date): Promise<string | null> {
    return workingRecoveryUrl(c, now) ?? this.fallbackFor(c.integration_id ?? null);
  }

  /** The link for a contact whose own one no longer works: its integration's fallback, else the deployment's. */
  private async fallbackFor(integrationId: number | null): Promise<string | null> {
    if (integrationId !== null) {
      const own = await this.integrationFallback(integrationId);
      if (own) return own;
    }
    return this.deploymentFallback;
  }

  /** The link a test email shows for {{recoveryUrl}}. */
  sample(): string {
    return this.deploymentFallback ?? this.sampleLink;
  }
}

/** Where earlier versions kept each contact's link, by (integration, funnel contact id), apart from the contact. */
export const LEGACY_RECOVERY_URLS = 'contact_recovery_urls';

interface LegacyRecoveryUrl {
  _id: unknown;
  integration_id: number;
  contact_id: string;
  url: string;
  updated_at: Date;
}

/**
 * At start: links kept apart by earlier versions move onto their contacts' carts (a cart that already has a link keeps
 * it: it is the sender's newer word), then leave that collection; 500 at a time, by the funnel key index. Run twice
 * at once (two instances starting), both write the same and delete the same.
 */
export async function moveLegacyRecoveryUrls(conn: Connection, logger: Logger): Promise<number> {
  const legacy = conn.db!.collection<LegacyRecoveryUrl>(LEGACY_RECOVERY_URLS);
  const contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  let moved = 0;
  for (;;) {
    const batch = await legacy.find({}, { limit: 500 }).toArray();
    if (batch.length === 0) break;
    const ops: AnyBulkWriteOperation<ContactDoc>[] = [];
    for (const row of batch) {
      const key = { integration_id: row.integration_id, contact_id: row.contact_id };
      const { cart } = normalizeCart({ recoveryUrl: row.url }, row.updated_at);
      if (!cart?.recovery_url) continue;
      ops.push(
        { updateOne: { filter: { ...key, cart: { $type: 'object' }, 'cart.recovery_url': null }, update: { $set: { 'cart.recovery_url': cart.recovery_url } } } },
        { updateOne: { filter: { ...key, cart: null }, update: { $set: { cart } } } },
      );
    }
    if (ops.length) await contacts.bulkWrite(ops, { ordered: true });
    await legacy.deleteMany({ _id: { $in: batch.map((r) => r._id) } } as never);
    moved += batch.length;
  }
  if (moved) logger.info({ moved }, 'checkout links moved onto their contacts');
  return moved;
}
