import { randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { headers as natsHeaders } from 'nats';
import type { Bus } from './nats';
import type { Logger } from './logger';

export interface OutboxEntry {
  eventId: string;
  subject: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  publishedAt: Date | null;
}

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
  /** Records an event after the domain write; the relay publishes it as soon as NATS answers. */
  add(subject: string, payload: Record<string, unknown>, eventId?: string): Promise<string>;
  /** Publishes everything pending now; returns how many were published. */
  flush(): Promise<number>;
  pending(): Promise<number>;
  stop(): void;
}

/**
 * Transactional-outbox without transactions (the stand-in has none): the event row is written right after the
 * domain write, published with `msgID = eventId` so JetStream drops a re-publish after a crash, then marked.
 */
export function createOutbox({ conn, bus, source, logger, intervalMs = 500 }: { conn: Connection; bus: Bus; source: string; logger: Logger; intervalMs?: number }): Outbox {
  const Model = conn.models.OutboxEntry ?? conn.model<OutboxEntry>('OutboxEntry', outboxSchema, 'outbox');
  let flushing: Promise<number> | null = null;
  let again = false;
  let stopped = false;

  async function publishPending(): Promise<number> {
    if (!bus.isConnected()) return 0;
    const { js } = await bus.ready();
    let published = 0;
    for (;;) {
      const batch = await Model.find({ publishedAt: null }).sort({ createdAt: 1 }).limit(200).lean();
      if (batch.length === 0) return published;
      // Pipelined: the publishes leave on the one connection in order and their acks are awaited together.
      await Promise.all(
        batch.map((entry) => {
          const h = natsHeaders();
          h.set('source', source);
          return js.publish(bus.subject(entry.subject), JSON.stringify(entry.payload), { msgID: entry.eventId, headers: h, timeout: 5_000 });
        }),
      );
      published += batch.length;
      // Published rows are removed (one bulk write of deletes by _id, each an index hit): kept, they made every
      // pending query read all events ever published (the stand-in uses no index for it), slower without bound.
      await Model.bulkWrite(batch.map((e) => ({ deleteOne: { filter: { _id: e._id } } })), { ordered: false });
    }
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

  // Group commit: adds made while one insert is being prepared or in flight are written by the next single
  // insertMany. A webhook adds one event per request; one round trip each was its largest remaining cost.
  let queued: { doc: OutboxEntry; resolve: () => void; reject: (err: unknown) => void }[] = [];
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
        () => batch.forEach((b) => b.resolve()),
        (err: { writeErrors?: { index: number }[] | { index: number } }) => {
          const failed = new Set([err.writeErrors ?? []].flat().map((e) => e.index));
          batch.forEach((b, i) => (failed.size === 0 || failed.has(i) ? b.reject(err) : b.resolve()));
        },
      )
      .finally(() => {
        writing = false;
        void flush();
        writeQueued();
      });
  }

  return {
    async add(subject, payload, eventId = randomUUID()) {
      const doc: OutboxEntry = { eventId, subject, payload: { ...payload, eventId, source, occurredAt: new Date().toISOString() }, createdAt: new Date(), publishedAt: null };
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
    },
  };
}
