import mongoose, { type Connection } from 'mongoose';
import { AckPolicy, DeliverPolicy, type JsMsg } from 'nats';
import type { Bus } from './nats';
import type { Logger } from './logger';
import { isDuplicateKeyError } from './errors';
import { createBatcher } from './batcher';
import { consumerFailures, consumerRedeliveries, probeConsumerLag } from './metrics';

const processedSchema = new mongoose.Schema({ eventId: { type: String, required: true, unique: true }, at: { type: Date, default: Date.now } }, { versionKey: false });

export interface ConsumedEvent {
  subject: string;
  payload: Record<string, unknown> & { eventId: string; source?: string };
}

export interface ConsumeOptions {
  conn: Connection;
  bus: Bus;
  durable: string;
  /** Subjects without the prefix, e.g. `funnel.purchase.created`. */
  subjects: string[];
  /** Events published by this source are skipped (a service does not react to its own facts). */
  ignoreSource?: string;
  handler: (event: ConsumedEvent) => Promise<void>;
  logger: Logger;
  /** Messages handled at once per subject (handlers are idempotent and events of one subject commute). */
  concurrency?: number;
  /**
   * A message waits up to this long for others (at most `gatherMax` in all) before the group is handled: handed over
   * in one go, their reads and writes share the handler's batched round trips. One by one, each burst the publisher
   * sent (a few events) cost a set of round trips on each side.
   */
  gatherMs?: number;
  gatherMax?: number;
  /**
   * Where processed event ids are kept (default `processed_events`). A second consumer of the same events in one
   * service needs its own: sharing the record, whichever handled an event first made the other skip it.
   */
  processedCollection?: string;
}

/**
 * Durable pull consumer shared by all instances of a service (work is split between them). Handlers are
 * idempotent; processed ids are recorded so a redelivery after a crash is skipped without re-running effects.
 */
export function consume({ conn, bus, durable, subjects, ignoreSource, handler, logger, concurrency = 128, gatherMs = 20, gatherMax = 64, processedCollection }: ConsumeOptions): { stop(): void } {
  const Processed = processedCollection
    ? { collection: conn.collection(processedCollection) }
    : (conn.models.ProcessedEvent ?? conn.model('ProcessedEvent', processedSchema, 'processed_events'));
  if (processedCollection)
    void Processed.collection.createIndex({ eventId: 1 }, { unique: true }).catch((err: unknown) => logger.warn({ err, processedCollection }, 'processed-events index not created'));
  let stopped = false;
  const iterators: { stop(): void }[] = [];
  const name = `${bus.streamName}_${durable}`.replace(/[^A-Za-z0-9_-]/g, '_');
  // Group commit of the processed ids of messages handled together; an id already there (a redelivery handled
  // twice at once) is fine.
  const recordProcessed = createBatcher(async (eventIds: string[]) => {
    try {
      await Processed.collection.insertMany(
        eventIds.map((eventId) => ({ eventId, at: new Date() })),
        { ordered: false },
      );
    } catch (err) {
      const errors = [(err as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors ?? []].flat();
      const onlyDuplicates = errors.length > 0 ? errors.every((e) => e.code === 11000) : isDuplicateKeyError(err);
      if (!onlyDuplicates) throw err;
    }
    return eventIds.map(() => undefined);
  });

  // The processed-id check of every message handled together is one `$in` read by the unique eventId index instead
  // of one round trip each: under a webhook burst the check alone was the consumer's most frequent command (one per
  // event).
  const processedAmong = createBatcher(async (eventIds: string[]) => {
    const found = await Processed.collection
      .find({ eventId: { $in: [...new Set(eventIds)] } }, { projection: { _id: 0, eventId: 1 } })
      .toArray();
    const done = new Set(found.map((d) => d.eventId as string));
    return eventIds.map((id) => done.has(id));
  });

  async function handle(m: JsMsg) {
    if (m.redelivered) consumerRedeliveries.inc({ consumer: durable });
    // The relay sets the source header: a service's own facts are acked without parsing their body.
    if (ignoreSource && m.headers?.get('source') === ignoreSource) {
      m.ack();
      return;
    }
    let payload: ConsumedEvent['payload'];
    try {
      payload = JSON.parse(m.string());
    } catch {
      logger.warn({ subject: m.subject }, 'dropping unparsable event');
      m.term();
      return;
    }
    if (!payload.eventId || (ignoreSource && payload.source === ignoreSource)) {
      m.ack();
      return;
    }
    if (await processedAmong(payload.eventId)) {
      m.ack();
      return;
    }
    const subject = subjects.find((s) => bus.subject(s) === m.subject) ?? m.subject;
    await handler({ subject, payload });
    await recordProcessed(payload.eventId);
    m.ack();
  }

  // One durable consumer per subject: the NATS server shipped here predates multi-subject filters (2.10).
  for (const subject of subjects) void run(subject);

  // Lag as JetStream counts it for the durable (shared by every instance): not yet delivered plus delivered and
  // not yet acknowledged, summed over the consumer's subjects.
  const unwatchLag = probeConsumerLag(async () => {
    if (!bus.isConnected()) return [];
    const { jsm } = await bus.ready();
    let pending = 0;
    for (const subject of subjects) {
      const info = await jsm.consumers.info(bus.streamName, `${name}_${subject}`.replace(/[^A-Za-z0-9_-]/g, '_')).catch(() => null);
      if (info) pending += info.num_pending + info.num_ack_pending;
    }
    return [{ labels: { consumer: durable }, value: pending }];
  });

  async function run(subject: string) {
    const durableName = `${name}_${subject}`.replace(/[^A-Za-z0-9_-]/g, '_');
    while (!stopped) {
      try {
        const { js, jsm } = await bus.ready();
        try {
          await jsm.consumers.info(bus.streamName, durableName);
        } catch {
          await jsm.consumers.add(bus.streamName, {
            durable_name: durableName,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            filter_subject: bus.subject(subject),
            ack_wait: 30_000_000_000,
            max_deliver: -1,
          });
        }
        const consumer = await js.consumers.get(bus.streamName, durableName);
        const messages = await consumer.consume({ max_messages: 256, expires: 5_000 });
        iterators.push(messages);
        // Several messages in flight: one at a time, a burst (a webhook burst's contact events) or a purchase behind
        // it waited a few round trips per message; gathered and started together, their writes share round trips.
        let inFlight = 0;
        const slots: (() => void)[] = [];
        let group: JsMsg[] = [];
        let timer: NodeJS.Timeout | null = null;
        const start = (m: JsMsg) =>
          handle(m)
            .catch((err) => {
              logger.error({ err: (err as Error).message, subject: m.subject }, 'event handler failed; will be redelivered');
              consumerFailures.inc({ consumer: durable });
              m.nak(1_000);
            })
            .finally(() => {
              inFlight--;
              slots.shift()?.();
            });
        const release = () => {
          if (timer) clearTimeout(timer);
          timer = null;
          const started = group;
          group = [];
          for (const m of started) void start(m);
        };
        for await (const m of messages) {
          if (inFlight >= concurrency) {
            release();
            await new Promise<void>((r) => slots.push(r));
          }
          inFlight++;
          group.push(m);
          if (group.length >= gatherMax) release();
          else timer ??= setTimeout(release, gatherMs);
          if (stopped) break;
        }
        release();
      } catch (err) {
        if (!stopped) {
          logger.warn({ err: (err as Error).message }, 'consumer interrupted; restarting');
          await new Promise((r) => setTimeout(r, 1_000));
        }
      }
    }
  }

  return {
    stop() {
      stopped = true;
      unwatchLag();
      for (const it of iterators) it.stop();
    },
  };
}
