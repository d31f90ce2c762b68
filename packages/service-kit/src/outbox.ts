import { randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { headers as natsHeaders } from 'nats';
import type { Bus } from './nats';
import type { Logger } from './logger';
import { createBatcher } from './batcher';
import { probeOutboxOldestAge, probeOutboxWaiting } from './metrics';
import type { Tx } from './transactions';

export interface OutboxEntry {
  eventId: string;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  publishedAt: Date | null;
}

type Row = OutboxEntry & { _id: mongoose.Types.ObjectId };

const outboxSchema = new mongoose.Schema<OutboxEntry>(
  {
    eventId: { type: String, required: true, unique: true },
    subject: { type: String, required: true },
    payload: { type: mongoose.Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    publishedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
outboxSchema.index({ publishedAt: 1, createdAt: 1 });

export interface Outbox {
  /**
   * Records an event after the domain write; the relay publishes it as soon as NATS answers. Given a transaction
   * (`inTransaction`), the row is written in it and published once it commits.
   */
  add(subject: string, payload: Record<string, unknown>, eventId?: string, tx?: Tx): Promise<string>;
  /** Publishes everything pending now; returns how many were published. */
  flush(): Promise<number>;
  pending(): Promise<number>;
  stop(): void;
}

/**
 * Transactional outbox: the event row is written in the domain write's transaction where the server has them (a
 * replica set, see `inTransaction`), else right after the domain write; published with `msgID = eventId` so
 * JetStream drops a re-publish after a crash, then deleted (`publishedAt` stays null on every row that exists: a row
 * is either waiting or gone).
 */
export function createOutbox({ conn, bus, source, logger, intervalMs = 500 }: { conn: Connection; bus: Bus; source: string; logger: Logger; intervalMs?: number }): Outbox {
  const Model = conn.models.OutboxEntry ?? conn.model<OutboxEntry>('OutboxEntry', outboxSchema, 'outbox');
  let flushing: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  // Event ids being published straight after their insert: the poll leaves them to that path.
  const inFlight = new Set<string>();

  async function publishRows(rows: OutboxEntry[]): Promise<void> {
    const { publish } = await bus.ready();
    // Pipelined: the publishes leave on the one connection in order and their acks are awaited together.
    await Promise.all(
      rows.map((entry) => {
        const h = natsHeaders();
        h.set('source', source);
        return publish(bus.subject(entry.subject), JSON.stringify(entry.payload), entry.eventId, h);
      }),
    );
  }

  // Published rows are removed (a bulk write of deletes by _id, each an index hit): kept, they would make every
  // pending query walk the index entries of all events ever published, slower without bound. Nobody waits
  // for them: the deletes of 100 ms share one write (a row still there after a crash is published again under its
  // msgID, which JetStream drops within its duplicate window, and consumers skip by event id after it).
  const removePublished = createBatcher(
    async (ids: mongoose.Types.ObjectId[]) => {
      await Model.collection.bulkWrite(
        ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
        { ordered: false },
      );
      return ids.map(() => undefined);
    },
    { maxInFlight: 1, lingerMs: 100 },
  );

  /** The poll: rows left by a failed or interrupted publish (NATS away, a crash, another instance's). */
  async function publishPending(): Promise<number> {
    if (!bus.isConnected()) return 0;
    let published = 0;
    for (;;) {
      const found = await Model.find({ publishedAt: null }).sort({ createdAt: 1 }).limit(200).lean<Row[]>();
      const batch = found.filter((e) => !inFlight.has(e.eventId));
      if (batch.length > 0) {
        await publishRows(batch);
        published += batch.length;
        await Promise.all(batch.map((e) => removePublished(e._id)));
      }
      if (found.length < 200 || batch.length === 0) return published;
    }
  }

  /**
   * Rows just inserted are published from memory at once: reading them back first would cost a query per insert
   * batch in front of every event's publish. A failure leaves them to the poll; a row the
   * poll also picked up meanwhile is published twice with one msgID, which JetStream drops.
   */
  function publishInserted(rows: Row[]): void {
    if (rows.length === 0 || stopped || !bus.isConnected()) return;
    for (const r of rows) inFlight.add(r.eventId);
    publishRows(rows)
      .then(() => Promise.all(rows.map((r) => removePublished(r._id))))
      .catch((err) => logger.warn({ err: (err as Error).message }, 'outbox publish failed; the relay retries'))
      .finally(() => rows.forEach((r) => inFlight.delete(r.eventId)));
  }

  function flush(): Promise<number> {
    if (flushing) {
      again = true;
      return flushing;
    }
    flushing = publishPending()
      .catch((err) => {
        logger.warn({ err: (err as Error).message }, 'outbox publish failed; will retry');
        return 0;
      })
      .finally(() => {
        flushing = null;
        if (again && !stopped) {
          again = false;
          void flush();
        }
      });
    return flushing;
  }

  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref();

  const unwatch = [
    probeOutboxWaiting(async () => [{ value: await Model.countDocuments({ publishedAt: null }) }]),
    probeOutboxOldestAge(async () => {
      const oldest = await Model.findOne({ publishedAt: null }, { createdAt: 1 }).sort({ createdAt: 1 }).lean<Row>();
      return [{ value: oldest ? Math.max(0, (Date.now() - oldest.createdAt.getTime()) / 1000) : 0 }];
    }),
  ];

  // Group commit: adds made while one insert is being prepared or in flight are written by the next single
  // insertMany. A webhook adds one event per request; one round trip each was its largest remaining cost.
  let queued: { doc: Row; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let writing = false;
  function writeQueued() {
    if (writing || queued.length === 0) return;
    writing = true;
    const batch = queued;
    queued = [];
    Model.collection
      .insertMany(
        batch.map((b) => b.doc),
        { ordered: false },
      )
      .then(
        () => {
          batch.forEach((b) => b.resolve());
          publishInserted(batch.map((b) => b.doc));
        },
        (err: { writeErrors?: { index: number }[] | { index: number } }) => {
          const failed = new Set([err.writeErrors ?? []].flat().map((e) => e.index));
          batch.forEach((b, i) => (failed.size === 0 || failed.has(i) ? b.reject(err) : b.resolve()));
          if (failed.size > 0) publishInserted(batch.filter((_, i) => !failed.has(i)).map((b) => b.doc));
        },
      )
      .finally(() => {
        writing = false;
        writeQueued();
      });
  }

  return {
    async add(subject, payload, eventId = randomUUID(), tx) {
      // The _id is ours, so the row can be deleted by it once published without reading it back.
      const doc = { _id: new mongoose.Types.ObjectId(), eventId, subject, payload: { ...payload, eventId, source, occurredAt: new Date().toISOString() }, createdAt: new Date(), publishedAt: null };
      if (tx?.session) {
        // In the caller's transaction: not grouped with other requests' rows, and published only once committed.
        await Model.collection.insertOne(doc, { session: tx.session });
        tx.afterCommit(() => publishInserted([doc]));
        return eventId;
      }
      await new Promise<void>((resolve, reject) => {
        queued.push({ doc, resolve, reject });
        if (!writing) setImmediate(writeQueued);
      });
      return eventId;
    },
    flush,
    pending: () => Model.countDocuments({ publishedAt: null }),
    stop() {
      stopped = true;
      clearInterval(timer);
      unwatch.forEach((off) => off());
    },
  };
}
