import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { connect } from 'nats';
import { call, startServiceProcess, testDbName, withoutTestSwitches, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import type { AuditRecord } from '@act/contracts/src/audit';

export const PUBLIC_URL = 'http://sms.test.local';

/**
 * A NATS prefix per test file (on top of the run's own NATS_PREFIX): files run in parallel, and the durable
 * consumer `svc-sms` would otherwise split one file's events with another file's service.
 */
export function filePrefix(label: string): string {
  return `${process.env.NATS_PREFIX ?? ''}sms_${label}_${randomBytes(3).toString('hex')}_`;
}

export interface SmsTestEnv {
  db: string;
  natsPrefix: string;
  env: Record<string, string>;
}

export function smsTestEnv(label: string, twilio: FakeTwilio | null, extra: Record<string, string> = {}): SmsTestEnv {
  const db = testDbName(`sms_${label}`);
  const natsPrefix = filePrefix(label);
  const env: Record<string, string> = {
    MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
    MONGODB_DB: db,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: natsPrefix,
    PUBLIC_URL,
    // One "minute" of delay is one second here; the due scan runs every 100 ms.
    SMS_DELAY_UNIT_MS: '1000',
    SMS_DUE_SCAN_MS: '100',
    SMS_AGENDA_PROCESS_EVERY_MS: '1000',
    SMS_SWEEP_EVERY_MS: '5000',
    TWILIO_ACCOUNT_SID: twilio?.accountSid ?? '',
    TWILIO_AUTH_TOKEN: twilio?.authToken ?? '',
    TWILIO_BASE_URL: twilio?.url ?? '',
    // Not Twilio's per-sender pace (1/s for a long code): tests about pacing set their own.
    TWILIO_MAX_MPS: '1000',
    ...extra,
  };
  return { db, natsPrefix, env: withoutTestSwitches(env) };
}

export function startSms(t: SmsTestEnv, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  // Generous: a loaded CI machine takes a while to load the twilio SDK and Agenda under tsx.
  return startServiceProcess('svc-sms', { ...t.env, ...extra }, 90_000);
}

/** A service sending through its own fake Twilio, and a client on its database: what a sending test starts with. */
export interface SendingSms {
  twilio: FakeTwilio;
  t: SmsTestEnv;
  svc: ServiceProcess;
  mongo: MongoClient;
  /** Stops the service and the fake, and removes the database and the stream. */
  stop(): Promise<void>;
}

export async function startSendingSms(label: string, extra: Record<string, string> = {}): Promise<SendingSms> {
  const twilio = await startFakeTwilio();
  const t = smsTestEnv(label, twilio, extra);
  const svc = await startSms(t);
  await configureSending(svc.url);
  const mongo = await MongoClient.connect(t.env.MONGODB_URI!);
  return {
    twilio,
    t,
    svc,
    mongo,
    async stop() {
      await mongo.close();
      await svc.stop();
      await twilio.stop();
      await dropStream(t.natsPrefix);
      await dropDb(t.db);
    },
  };
}

/** Polls `fn` until it returns a truthy value. */
export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Blackout off and a sender set: the usual starting point of a sequence test. */
export async function configureSending(url: string, extra: Record<string, unknown> = {}) {
  const res = await call(url, 'POST', '/api/twilio/config', {
    body: { phone_number: '+15005550006', blackout_enabled: false, ...extra },
  });
  if (res.status !== 200) throw new Error(`config failed: ${res.status} ${res.text}`);
  return res.body;
}

/** An active integration for `funnel` with a campaign of the given templates (delays in test "minutes" = seconds). */
export async function createFunnel(
  url: string,
  funnel: string,
  templates: { message: string; delay_minutes?: number; sequence_order?: number; active?: boolean }[],
  reminderDelay = 1,
) {
  const campaign = await call(url, 'POST', '/api/sms-campaigns', {
    body: { name: `Campaign ${funnel}`, integration_id: null, active: true },
  });
  if (campaign.status !== 201) throw new Error(`campaign: ${campaign.text}`);
  const integration = await call(url, 'POST', '/api/sms-webhook-integrations', {
    body: {
      name: `Integration ${funnel}`,
      funnel_id: funnel,
      sms_campaign_id: campaign.body.id,
      reminder_delay: reminderDelay,
      active: true,
    },
  });
  if (integration.status !== 201) throw new Error(`integration: ${integration.text}`);
  const created = [];
  for (const [i, t] of templates.entries()) {
    const r = await call(url, 'POST', '/api/sms-templates', {
      body: {
        campaign_id: campaign.body.id,
        name: `Step ${i + 1}`,
        message: t.message,
        sequence_order: t.sequence_order ?? i + 1,
        delay_minutes: t.delay_minutes ?? 0,
        active: t.active ?? true,
      },
    });
    if (r.status !== 201) throw new Error(`template: ${r.text}`);
    created.push(r.body);
  }
  return { campaign: campaign.body, integration: integration.body, templates: created };
}

export function postContact(
  url: string,
  funnel: string,
  contactId: string,
  phone: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return call(url, 'POST', '/api/sms/webhook', {
    user: null,
    headers,
    body: {
      event: 'contact_created',
      funnel_id: funnel,
      contact: { id: contactId, phone, first_name: 'Jane', ...extra },
    },
  });
}

/** Publishes on the file's prefixed subject as another service would (a JetStream publish). */
export async function publishEvent(natsPrefix: string, subject: string, payload: Record<string, unknown>) {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  try {
    await nc
      .jetstream()
      .publish(`${natsPrefix}${subject}`, JSON.stringify(payload), { msgID: String(payload.eventId) });
  } finally {
    await nc.close();
  }
}

/** The audit.recorded events the service under test publishes, gathered as they arrive (core NATS sees what JetStream stores on the subject). */
export interface AuditCollector {
  seen: AuditRecord[];
  stop(): Promise<void>;
}

export async function collectAuditRecords(natsPrefix: string): Promise<AuditCollector> {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const sub = nc.subscribe(`${natsPrefix}audit.recorded`);
  const seen: AuditRecord[] = [];
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(m.string()) as AuditRecord);
  })();
  return {
    seen,
    async stop() {
      sub.unsubscribe();
      await nc.close();
    },
  };
}

/** Removes the file's stream so the shared NATS server does not collect test streams. */
export async function dropStream(natsPrefix: string) {
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' }).catch(() => null);
  if (!nc) return;
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(`${natsPrefix}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_')).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

/** Drops a test database (the stand-in keeps everything in memory until it stops). */
export async function dropDb(db: string) {
  const mongoose = (await import('mongoose')).default;
  const conn = await mongoose
    .createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: db, serverSelectionTimeoutMS: 3_000 })
    .asPromise()
    .catch(() => null);
  if (!conn) return;
  await conn.dropDatabase().catch(() => undefined);
  await conn.close();
}

/**
 * The positive control of a "nothing more is sent" check: resolves (with the contacts) once at least `count`
 * contacts pass `match` and every one of them has no step left to look at (`next_send_at` null: the sequence was
 * sent to its end, or closed as purchased, skipped, blocked, failed or opted out). Sleeping a while and finding no
 * further message passes as well when the engine has not reached the step yet.
 */
export async function waitUntilSequencesClosed(
  url: string,
  match: (c: { contact_id: string }) => boolean,
  count: number,
  timeoutMs = 30_000,
) {
  type Row = { contact_id: string; status: string; next_send_at: string | null; messages_sent: number };
  return waitFor(async () => {
    const rows = ((await call(url, 'GET', '/api/sms-contacts')).body as Row[]).filter(match);
    return rows.length >= count && rows.every((c) => c.next_send_at === null) ? rows : null;
  }, timeoutMs);
}
