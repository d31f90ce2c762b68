import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AckPolicy, DeliverPolicy, type NatsConnection } from 'nats';
import { freePort, waitUntilConsumersDrained } from '@act/service-kit/testing';
import { scrapeMetrics } from '@act/testing';
import { contactCreated, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

type Row = { contact_id: string; email: string; status: string; integration_id: number };

describe('events from the SMS side', () => {
  let email: EmailUnderTest;
  let nc: NatsConnection;
  beforeAll(async () => {
    email = await startEmail('events');
    nc = await natsConnect();
    await email.api('POST', '/api/webhook-integrations', { body: { name: 'Both', funnel_id: 'both-funnel', reminder_delay: 600 } });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await nc?.close();
    await email?.svc.stop();
    if (email) await dropDb(email.db);
  });

  const publish = async (subject: string, payload: Record<string, unknown>) => {
    const js = nc.jetstream();
    await js.publish(`${email.prefix}${subject}`, JSON.stringify({ eventId: randomUUID(), source: 'svc-sms', occurredAt: new Date().toISOString(), ...payload }));
  };
  const contacts = async () => (await email.api('GET', '/api/contacts')).body as Row[];

  it('a funnel.purchase.created from svc-sms marks the contact purchased (by contact id, else by email)', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('e-1', 'e1@example.com', 'both-funnel'), user: null });
    await email.api('POST', '/api/webhook', { body: contactCreated('e-2', 'E2@example.com', 'both-funnel'), user: null });
    // The stream is created by the service's bus; wait until it answers.
    await waitFor(async () => (await nc.jetstreamManager()).streams.info(`${email.prefix}FUNNEL`), { what: 'stream' });
    await publish('funnel.purchase.created', { funnelId: 'both-funnel', contactId: 'e-1', email: null, phone: '+15550001111', purchasedAt: new Date().toISOString() });
    await publish('funnel.purchase.created', { funnelId: 'sms-only-funnel', contactId: 'sms-9', email: 'e2@EXAMPLE.com', phone: null, purchasedAt: new Date().toISOString() });
    await waitFor(async () => {
      const list = await contacts();
      return list.find((c) => c.contact_id === 'e-1')?.status === 'purchased' && list.find((c) => c.contact_id === 'e-2')?.status === 'purchased';
    }, { what: 'both contacts purchased' });
  });

  it('ignores the events it published itself', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('e-3', 'e3@example.com', 'both-funnel'), user: null });
    const js = nc.jetstream();
    const own = { eventId: randomUUID(), source: 'svc-email', occurredAt: new Date().toISOString(), funnelId: 'both-funnel', contactId: 'e-3', email: null, phone: null, purchasedAt: new Date().toISOString() };
    await js.publish(`${email.prefix}funnel.purchase.created`, JSON.stringify(own));
    // Handled (acknowledged by every consumer), not merely not reached yet.
    await waitUntilConsumersDrained(await nc.jetstreamManager(), `${email.prefix}FUNNEL`);
    expect((await contacts()).find((c) => c.contact_id === 'e-3')?.status).toBe('pending');
  });

  it('a funnel.contact.created from svc-sms creates the email contact only for an active integration of that funnel, once', async () => {
    const base = { funnelId: 'both-funnel', contactId: 'sms-c-1', email: 'fromsms@example.com', phone: '+15550002222', createdAt: new Date().toISOString() };
    await publish('funnel.contact.created', base);
    await publish('funnel.contact.created', base); // same fact, new event id (the funnel posted twice)
    await publish('funnel.contact.created', { ...base, funnelId: 'unknown-funnel', contactId: 'sms-c-2' });
    await publish('funnel.contact.created', { ...base, contactId: 'sms-c-3', email: null });
    // The same funnel contact also arrives on the email webhook: still one contact.
    await email.api('POST', '/api/webhook', { body: contactCreated('sms-c-1', 'fromsms@example.com', 'both-funnel'), user: null });
    await waitFor(async () => (await contacts()).some((c) => c.contact_id === 'sms-c-1'), { what: 'contact from sms' });
    await waitUntilConsumersDrained(await nc.jetstreamManager(), `${email.prefix}FUNNEL`);
    const list = await contacts();
    expect(list.filter((c) => c.contact_id === 'sms-c-1')).toHaveLength(1);
    expect(list.some((c) => c.contact_id === 'sms-c-2' || c.contact_id === 'sms-c-3')).toBe(false);
  });
});

describe('outbox', () => {
  let dir: string;
  let port: number;
  let metricsUrl: string;
  let server: ChildProcess | null = null;
  let email: EmailUnderTest;

  const startNats = async () => {
    server = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: 'ignore' });
    await waitFor(async () => {
      const c = await natsConnect(`nats://127.0.0.1:${port}`);
      await c.close();
      return true;
    }, { what: 'private nats-server' });
  };
  const stopNats = async () => {
    const s = server;
    server = null;
    if (!s || s.exitCode !== null) return;
    await new Promise<void>((r) => {
      s.once('exit', () => r());
      s.kill('SIGTERM');
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'email-outbox-nats-'));
    port = await freePort();
    await startNats();
    metricsUrl = `http://127.0.0.1:${await freePort()}`;
    email = await startEmail('outbox', { NATS_URL: `nats://127.0.0.1:${port}`, EMAIL_METRICS_PORT: new URL(metricsUrl).port });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await stopNats();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes webhooks while NATS is away and publishes them when it is back', async () => {
    await stopNats();
    const r = await email.api('POST', '/api/webhook', { body: contactCreated('o-1', 'o1@example.com', undefined, { phone: '+15550003333' }), user: null });
    expect(r.status).toBe(200);
    const p = await email.api('POST', '/api/webhook', { body: { event: 'purchase_created', contact: { id: 'o-1' } }, user: null });
    expect(p.status).toBe(200);
    // Both wait in the outbox while NATS is away (read from the service, not assumed after a second's sleep).
    await waitFor(async () => (await scrapeMetrics(metricsUrl)).value('act_outbox_waiting') === 2, { timeoutMs: 15_000, what: 'both events waiting in the outbox' });
    await startNats();
    const nc = await natsConnect(`nats://127.0.0.1:${port}`);
    try {
      const jsm = await nc.jetstreamManager();
      const stream = `${email.prefix}FUNNEL`;
      const seen = await waitFor(
        async () => {
          const info = await jsm.streams.info(stream);
          return info.state.messages >= 2 ? info : null;
        },
        { timeoutMs: 20_000, what: 'the outbox to publish after NATS came back' },
      );
      // The positive control of "no more than two": the outbox has nothing left to publish.
      await waitFor(async () => (await scrapeMetrics(metricsUrl)).value('act_outbox_waiting') === 0, { timeoutMs: 20_000, what: 'the outbox to be empty' });
      expect((await jsm.streams.info(stream)).state.messages).toBe(2);
      expect(seen.state.messages).toBe(2);
      const name = `check_${process.pid}`;
      await jsm.consumers.add(stream, { durable_name: name, ack_policy: AckPolicy.None, deliver_policy: DeliverPolicy.All });
      const consumer = await nc.jetstream().consumers.get(stream, name);
      const batch = await consumer.fetch({ max_messages: 2, expires: 5_000 });
      const got: { subject: string; data: Record<string, unknown> }[] = [];
      for await (const m of batch) got.push({ subject: m.subject, data: JSON.parse(m.string()) });
      expect(got.map((g) => g.subject)).toEqual([`${email.prefix}funnel.contact.created`, `${email.prefix}funnel.purchase.created`]);
      expect(got[0]!.data).toMatchObject({ contactId: 'o-1', email: 'o1@example.com', phone: '+15550003333', funnelId: 'default', source: 'svc-email' });
    } finally {
      await nc.close();
    }
  }, 120_000);
});
