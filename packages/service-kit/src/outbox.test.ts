import { headers as natsHeaders, type NatsConnection, connect } from 'nats';
import type { Connection } from 'mongoose';
import { createBus, type Bus } from './nats';
import { createOutbox, type Outbox } from './outbox';
import { consume, type ConsumedEvent } from './consumer';
import { connectMongo } from './mongo';
import { createLogger } from './logger';
import { testDbName } from './testing';

// The relay and the consumer against the real NATS and the MongoDB stand-in that infra/scripts/test.mjs provides.
const logger = createLogger('outbox-test');
const prefix = `${process.env.NATS_PREFIX ?? ''}kit_${process.pid}_${Date.now().toString(36)}_`;
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
let conn: Connection;
let bus: Bus;
let nc: NatsConnection;
let outbox: Outbox;
const seen: { subject: string; eventId: string; source: string | undefined }[] = [];

async function waitFor<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  conn = await connectMongo({ uri: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', dbName: testDbName('kit_outbox') }, logger);
  bus = createBus({ url: natsUrl, prefix, name: 'kit-test', logger });
  await bus.ready();
  nc = await connect({ servers: natsUrl });
  const sub = nc.subscribe(`${prefix}funnel.>`);
  void (async () => {
    for await (const m of sub) {
      const body = JSON.parse(m.string()) as { eventId: string };
      seen.push({ subject: m.subject.slice(prefix.length), eventId: body.eventId, source: m.headers?.get('source') });
    }
  })();
  outbox = createOutbox({ conn, bus, source: 'svc-a', logger, intervalMs: 200 });
  // As a service does before taking requests: the stand-in fails inserts racing the build of a unique index.
  await conn.models.OutboxEntry!.init();
}, 30_000);

afterAll(async () => {
  outbox?.stop();
  await nc?.close();
  await bus?.close();
  await conn?.dropDatabase();
  await conn?.close();
});

describe('outbox relay', () => {
  it('publishes every added event once, with its source header, and keeps no published row', async () => {
    const ids = await Promise.all(Array.from({ length: 120 }, (_, i) => outbox.add('funnel.test.added', { n: i })));
    expect(new Set(ids).size).toBe(120);
    const mine = () => seen.filter((s) => s.subject === 'funnel.test.added');
    await waitFor(mine, (v) => v.length >= 120, 'the 120 events on NATS');
    await waitFor(() => outbox.pending(), (n) => n === 0, 'an empty outbox');
    // (A row the poll read while its insert was being answered may go out twice under one msgID: JetStream keeps one.)
    expect([...new Set(mine().map((s) => s.eventId))].sort()).toEqual([...ids].sort());
    expect(mine().every((s) => s.source === 'svc-a')).toBe(true);
  });
});

describe('consume', () => {
  it('runs the handler once per event id, skips its own source, and skips an event delivered again', async () => {
    const handled: ConsumedEvent[] = [];
    const consumer = consume({
      conn,
      bus,
      durable: 'svc-b',
      subjects: ['funnel.test.consumed'],
      ignoreSource: 'svc-b',
      logger,
      handler: async (e) => {
        handled.push(e);
      },
    });
    try {
      const others = await Promise.all(Array.from({ length: 40 }, (_, i) => outbox.add('funnel.test.consumed', { n: i })));
      const own = createOutbox({ conn, bus, source: 'svc-b', logger });
      try {
        await Promise.all(Array.from({ length: 10 }, (_, i) => own.add('funnel.test.consumed', { own: i })));
      } finally {
        own.stop();
      }
      await waitFor(() => handled.length, (n) => n >= 40, 'the 40 events of svc-a handled');
      // The same events again under new message ids (a re-publish JetStream's duplicate window would not catch).
      const { js } = await bus.ready();
      for (const eventId of others.slice(0, 10)) {
        const h = natsHeaders();
        h.set('source', 'svc-a');
        await js.publish(`${prefix}funnel.test.consumed`, JSON.stringify({ eventId, source: 'svc-a', again: true }), { msgID: `${eventId}-again`, headers: h });
      }
      // A fresh event after them: once it is handled, the repeats before it have been through the consumer.
      const last = await outbox.add('funnel.test.consumed', { last: true });
      await waitFor(() => handled.some((e) => e.payload.eventId === last), Boolean, 'the last event handled');
      // Every message acked (the repeats included): the consumer has decided about all of them.
      const { jsm } = await bus.ready();
      const durable = `${bus.streamName}_svc-b_funnel.test.consumed`.replace(/[^A-Za-z0-9_-]/g, '_');
      await waitFor(
        () => jsm.consumers.info(bus.streamName, durable),
        (i) => i.num_pending === 0 && i.num_ack_pending === 0 && i.delivered.consumer_seq >= 61,
        'every message acked',
      );
      const ids = handled.map((e) => e.payload.eventId);
      expect(ids.sort()).toEqual([...others, last].sort());
      expect(handled.every((e) => e.payload.source === 'svc-a' && e.payload.again === undefined)).toBe(true);
    } finally {
      consumer.stop();
    }
  });
});
