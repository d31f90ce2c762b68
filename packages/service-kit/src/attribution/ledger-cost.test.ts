/**
 * What a send costs the revenue ledger: 2,000 `send.*.sent` events (1,000 contacts, an email and a text
 * each) on NATS, taken by the real revenue consumer into a ledger on the stand-in. Counts the MongoDB commands the
 * consumer sends (driver command monitoring) and the CPU of this process and of the stand-in while it works, and
 * prints them; the assertion is on commands per send, which does not depend on how busy the machine is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { MongoClient } from 'mongodb';
import { connect, type NatsConnection } from 'nats';
import { Subjects } from '@act/contracts';
import { createBus, type Bus } from '../nats';
import { createLogger } from '../logger';
import { testDbName, waitUntilConsumersDrained } from '../testing';
import { AttributionLedger } from './ledger';
import { startRevenueConsumer, REVENUE_SUBJECTS } from './events';

jest.setTimeout(180_000);

const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONTACTS = 1_000;

/** CPU seconds (user + system) of the stand-in serving `MONGODB_URI`, when it is a local process; else null. */
function standInCpu(): number | null {
  // The driver's own parse: a seed list or mongodb+srv:// is not a WHATWG URL. One local host or no local stand-in.
  const hosts = new MongoClient(MONGODB_URI).options.hosts;
  if (hosts.length !== 1) return null;
  const port = String(hosts[0].port);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((a) => a.includes('MongoStandIn')) || !cmd.includes(port)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return null;
}

describe('the revenue consumer under a burst of sends', () => {
  let conn: Connection;
  let bus: Bus;
  let nc: NatsConnection;
  const prefix = `ledgercost${randomUUID().slice(0, 8)}.`;
  const stream = `${prefix}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_');

  beforeAll(async () => {
    conn = await mongoose.createConnection(MONGODB_URI, { dbName: testDbName('kit_ledger_cost'), monitorCommands: true }).asPromise();
    nc = await connect({ servers: NATS_URL });
    bus = createBus({ url: NATS_URL, prefix, name: 'ledger-cost', logger: createLogger('ledger-cost') });
    await bus.ready();
  });
  afterAll(async () => {
    await conn?.dropDatabase();
    await conn?.close();
    await bus?.close();
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc?.close();
  });

  it('stays within a few MongoDB commands per hundred sends', async () => {
    const ledger = new AttributionLedger(conn);
    await ledger.init();
    const js = nc.jetstream();
    const sentAt = new Date(Date.now() - 3_600_000);
    for (let step = 1; step <= 2; step++)
      for (let c = 0; c < CONTACTS; c++) {
        const channel = step === 1 ? 'email' : 'sms';
        await js.publish(
          `${prefix}${step === 1 ? Subjects.emailSent : Subjects.smsSent}`,
          JSON.stringify({
            eventId: randomUUID(),
            source: step === 1 ? 'svc-email' : 'svc-sms',
            occurredAt: new Date().toISOString(),
            channel,
            funnelId: `funnel-${c % 10}`,
            contactId: `c${c}`,
            email: `c${c}@example.com`,
            phone: null,
            integrationId: c % 10,
            campaignId: 100 + (c % 5),
            templateId: 1000 + step,
            step,
            sendId: `${channel}-${c}`,
            messageId: null,
            sentAt: new Date(sentAt.getTime() + step * 60_000 + c).toISOString(),
          }),
        );
      }

    let commands = 0;
    const count = () => void commands++;
    conn.getClient().on('commandStarted', count);
    const cpu0 = process.cpuUsage();
    const standIn0 = standInCpu();
    const t0 = Date.now();
    const consumer = startRevenueConsumer({ conn, bus, logger: createLogger('ledger-cost'), ledger, service: 'svc-email' });
    try {
      const jsm = await nc.jetstreamManager();
      // Every subject's durable made (else "drained" could mean "not yet created"), then nothing pending.
      for (let i = 0; ; i++) {
        let n = 0;
        for await (const _ of jsm.consumers.list(stream)) n++;
        if (n === REVENUE_SUBJECTS.length) break;
        if (i > 200) throw new Error(`only ${n} consumers`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await waitUntilConsumersDrained(jsm, stream, 150_000);
    } finally {
      consumer.stop();
    }
    const ms = Date.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const standIn1 = standInCpu();
    conn.getClient().off('commandStarted', count);

    // The positive control: every send is in the ledger, every contact counted once per funnel.
    expect(await ledger.touches.countDocuments({})).toBe(2 * CONTACTS);
    const reminded = await ledger.remindedIn(new Date(sentAt.getTime() - 86_400_000), new Date(Date.now() + 86_400_000));
    expect([...reminded.values()].reduce((a, b) => a + b, 0)).toBe(CONTACTS);

    const sends = 2 * CONTACTS;
    const figures = {
      sends,
      wall_ms: ms,
      commands,
      commands_per_send: Math.round((commands / sends) * 100) / 100,
      consumer_cpu_ms_per_send: Math.round(((cpu.user + cpu.system) / 1000 / sends) * 1000) / 1000,
      standin_cpu_ms_per_send: standIn0 !== null && standIn1 !== null ? Math.round((((standIn1 - standIn0) * 1000) / sends) * 1000) / 1000 : null,
    };
    console.log(`ledger cost: ${JSON.stringify(figures)}`);
    expect(figures.commands_per_send).toBeLessThan(Number(process.env.LEDGER_COST_MAX_COMMANDS_PER_SEND ?? 1));
  });
});
