import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { createBatcher } from './batcher';
import { insertNew } from './insert-new';

interface SeenDelivery {
  integration_id: number;
  delivery_id: string;
  received_at: Date;
}

const INDEX = 'integration_delivery_unique';

/**
 * Remembers the senders' own delivery ids per integration (ClickFunnels' event_id, Shopify's X-Shopify-Webhook-Id),
 * so a retried or replayed delivery has no second effect. The unique index decides, so two instances taking the same
 * delivery at once agree on which one applies it. Entries expire after `retentionDays` (senders retry for days, not
 * months), by a TTL index.
 */
export class ReplayGuard {
  private readonly coll: Collection<SeenDelivery>;
  private ready: Promise<void> | null = null;
  // Claims of deliveries arriving together share one insertMany: a round trip per signed delivery cost the
  // signed intake a third of its throughput (bench/webhooks.mjs, signed ClickFunnels 2.0 phase). Two in flight: a
  // claim is a step the unsigned path does not wait for, so what it adds is its queueing (CPU per event signed vs
  // unsigned at the same 800/s: 2.74 vs 2.67 ms), and a claim waiting behind a whole batch was most of it.
  private readonly claimBatch = createBatcher((docs: SeenDelivery[]) => insertNew(this.coll, docs, INDEX), {
    maxInFlight: 2,
  });

  constructor(
    conn: Connection,
    collection: string,
    private readonly retentionDays = 30,
  ) {
    this.coll = conn.db!.collection<SeenDelivery>(collection);
  }

  init(): Promise<void> {
    return (this.ready ??= (async () => {
      await this.coll.createIndex({ integration_id: 1, delivery_id: 1 }, { unique: true, name: INDEX });
      await this.coll.createIndex(
        { received_at: 1 },
        { expireAfterSeconds: this.retentionDays * 86_400, name: 'received_at_ttl' },
      );
    })());
  }

  /** True the first time this delivery of this integration is seen (within the retention period). */
  async claim(integrationId: number, deliveryId: string): Promise<boolean> {
    await this.init();
    const now = new Date();
    if (await this.claimBatch({ integration_id: integrationId, delivery_id: deliveryId, received_at: now })) return true;
    // A claim past its retention is forgotten, though MongoDB's TTL monitor (60 s period) may not have removed it
    // yet: it is taken over by a conditional update, so of two instances taking it at once only one succeeds.
    const expired = new Date(now.getTime() - this.retentionDays * 86_400_000);
    const taken = await this.coll.updateOne(
      { integration_id: integrationId, delivery_id: deliveryId, received_at: { $lt: expired } },
      { $set: { received_at: now } },
    );
    return taken.modifiedCount === 1;
  }

  /** Forgets a claim whose delivery could not be applied, so the sender's retry is applied. */
  async release(integrationId: number, deliveryId: string): Promise<void> {
    await this.coll.deleteOne({ integration_id: integrationId, delivery_id: deliveryId });
  }
}
