import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { Subjects, type FrequencyCapChangedEvent } from '@act/contracts';
import { consume } from './consumer';
import type { Bus } from './nats';
import type { Logger } from './logger';
import type { Outbox } from './outbox';

interface CapDoc {
  _id: 'frequency_cap';
  hours: number | null;
  changed_at: Date;
}

/**
 * The account's frequency cap (at most one message per person per N hours, both channels), kept equal on both
 * sides: each service stores it in its own database (one document, read by `_id`), a save on either side is
 * published (`send.frequency-cap.changed`) and the other side stores it too. The latest change wins on both,
 * whatever order the events arrive in.
 */
export class FrequencyCapSetting {
  private readonly coll: Collection<CapDoc>;

  constructor(
    conn: Connection,
    private readonly outbox: Pick<Outbox, 'add'>,
  ) {
    this.coll = conn.collection<CapDoc>('frequency_cap');
  }

  /** Hours, or null (off: the default). */
  async get(): Promise<number | null> {
    const doc = await this.coll.findOne({ _id: 'frequency_cap' });
    return doc?.hours ?? null;
  }

  /** Saved here and told to the other side; saving the stored value again changes nothing. */
  async set(hours: number | null, at = new Date()): Promise<number | null> {
    if ((await this.get()) === hours) return hours;
    await this.store(hours, at);
    await this.outbox.add(Subjects.frequencyCapChanged, { hours, changedAt: at.toISOString() });
    return hours;
  }

  /** The other side's change, unless a later one is stored. */
  async apply(e: Pick<FrequencyCapChangedEvent, 'hours' | 'changedAt'>): Promise<void> {
    const at = new Date(e.changedAt);
    if (Number.isNaN(at.getTime())) return;
    const hours = typeof e.hours === 'number' && Number.isInteger(e.hours) && e.hours > 0 ? e.hours : null;
    await this.store(hours, at);
  }

  /** Written only over an older change (a compare on changed_at; the first write inserts). */
  private async store(hours: number | null, at: Date): Promise<void> {
    const res = await this.coll.updateOne({ _id: 'frequency_cap', changed_at: { $lt: at } }, { $set: { hours, changed_at: at } });
    if (res.matchedCount > 0) return;
    await this.coll.insertOne({ _id: 'frequency_cap', hours, changed_at: at }).catch((err: unknown) => {
      // Already there with a change as late or later: that one stands.
      if ((err as { code?: number }).code !== 11000) throw err;
    });
  }
}

/** The other side's cap changes, stored here (a durable consumer of its own, shared by the service's instances). */
export function startFrequencyCapConsumer({
  conn,
  bus,
  logger,
  service,
  setting,
}: {
  conn: Connection;
  bus: Bus;
  logger: Logger;
  service: 'svc-email' | 'svc-sms';
  setting: FrequencyCapSetting;
}) {
  return consume({
    conn,
    bus,
    durable: `${service}-frequency-cap`,
    subjects: [Subjects.frequencyCapChanged],
    ignoreSource: service,
    logger,
    processedCollection: 'frequency_cap_events',
    handler: ({ payload }) => setting.apply(payload as unknown as FrequencyCapChangedEvent),
  });
}
