import { connect, headers, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import { createAckedPublisher } from './nats';

// Against the real NATS (JetStream on) that infra/scripts/test.mjs provides.
const prefix = `${process.env.NATS_PREFIX ?? ''}kit_pub_${process.pid}_${Date.now().toString(36)}_`;
const stream = `${prefix}S`.replace(/[^A-Za-z0-9_-]/g, '_');
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({
    name: stream,
    subjects: [`${prefix}in.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.Memory,
    duplicate_window: 60_000_000_000,
  });
});

afterAll(async () => {
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc?.close();
});

describe('createAckedPublisher', () => {
  it('resolves once the stream stored each message; a repeated msgID is stored once', async () => {
    const publish = createAckedPublisher(nc);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => publish(`${prefix}in.a`, `{"n":${i}}`, `id-${i}`, headers())),
    );
    await publish(`${prefix}in.a`, '{"n":0}', 'id-0', headers());
    const info = await (await nc.jetstreamManager()).streams.info(stream);
    expect(info.state.messages).toBe(50);
    const m = await (await nc.jetstreamManager()).streams.getMessage(stream, { seq: 1 });
    expect(m.header.get('Nats-Msg-Id')).toBe('id-0');
  });

  it('rejects a message no stream takes', async () => {
    const publish = createAckedPublisher(nc);
    await expect(publish(`${prefix}nowhere`, '{}', 'x', headers())).rejects.toThrow(/no JetStream stream/);
  });

  it('rejects what is not acknowledged in time', async () => {
    const publish = createAckedPublisher(nc, 300);
    // A plain subscriber takes the subject and never answers, as a stalled server would.
    nc.subscribe(`${prefix}silent`, { callback: () => undefined });
    await expect(publish(`${prefix}silent`, '{}', 'y', headers())).rejects.toThrow(/did not acknowledge within 300 ms/);
  });
});

describe('createBus', () => {
  it('widens a stream an older release made with fewer subject families, keeping its messages', async () => {
    const { createBus, STREAM_SUBJECTS } = await import('./nats');
    const { createLogger } = await import('./logger');
    const p = `${prefix}old_`;
    const name = `${p}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_');
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({
      name,
      subjects: [`${p}funnel.>`, `${p}unsubscribe.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.Memory,
    });
    await nc.jetstream().publish(`${p}funnel.contact.created`, '{}');
    const bus = createBus({
      url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      prefix: p,
      name: 'widen-test',
      logger: createLogger('widen-test'),
    });
    try {
      await bus.ready();
      const info = await jsm.streams.info(name);
      expect([...info.config.subjects].sort()).toEqual(STREAM_SUBJECTS.map((s) => `${p}${s}`).sort());
      expect(info.state.messages).toBe(1);
    } finally {
      await bus.close();
      await jsm.streams.delete(name).catch(() => undefined);
    }
  });
});
