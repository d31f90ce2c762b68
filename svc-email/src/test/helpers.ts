/**
 * Service-test helpers: each test file starts the real svc-email (tsx child process) on its own database and its
 * own NATS prefix (so its stream and durable consumers are its own), and talks HTTP to it like the gateway does.
 * MONGODB_URI / NATS_URL / NATS_PREFIX come from `npm test` (infra/scripts/test.mjs) or the shell.
 */
import { MongoClient } from 'mongodb';
import { connect, type NatsConnection } from 'nats';
import { call, startServiceProcess, testDbName, withoutTestSwitches, type ServiceProcess } from '@act/service-kit/testing';
import type { IdentityUser } from '@act/service-kit';
import type { AuditRecord } from '@act/contracts/src/audit';

export const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export function natsPrefixFor(label: string): string {
  return `${process.env.NATS_PREFIX ?? ''}t${process.pid}${label}_`.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Fast clocks for tests: 1 "minute" of reminder delay lasts 1 s; the due poller looks quickly. */
export const FAST_REMINDERS = {
  REMINDER_DELAY_UNIT_MS: '1000',
  REMINDER_DUE_SCAN_MS: '200',
  INTEGRATION_CACHE_MS: '1000',
};

export interface EmailUnderTest {
  svc: ServiceProcess;
  db: string;
  prefix: string;
  env: Record<string, string>;
  api(method: string, path: string, opts?: { body?: unknown; raw?: string; user?: IdentityUser | null; headers?: Record<string, string> }): ReturnType<typeof call>;
}

export async function startEmail(label: string, env: Record<string, string> = {}): Promise<EmailUnderTest> {
  const db = env.MONGODB_DB ?? testDbName(`email_${label}`);
  const prefix = env.NATS_PREFIX ?? natsPrefixFor(label);
  const fullEnv = withoutTestSwitches({ MONGODB_URI, NATS_URL, ...FAST_REMINDERS, ...env, MONGODB_DB: db, NATS_PREFIX: prefix });
  // Generous: under a loaded CI machine tsx can take tens of seconds to start a service.
  const svc = await startServiceProcess('svc-email', fullEnv, START_TIMEOUT_MS);
  // The instance that chose the prefix removes its stream when it stops (`npm test` also removes its run's).
  if (env.NATS_PREFIX === undefined) {
    const stop = svc.stop.bind(svc);
    svc.stop = async () => {
      await stop();
      await deleteStream(fullEnv.NATS_URL, `${prefix}FUNNEL`);
    };
  }
  return { svc, db, prefix, env: fullEnv, api: (method, path, opts = {}) => call(svc.url, method, path, opts) };
}

export async function dropDb(db: string): Promise<void> {
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    await client.db(db).dropDatabase();
  } finally {
    await client.close();
  }
}

async function deleteStream(url: string, stream: string): Promise<void> {
  try {
    const nc = await connect({ servers: url, maxReconnectAttempts: 0 });
    try {
      await (await nc.jetstreamManager()).streams.delete(stream);
    } finally {
      await nc.close();
    }
  } catch {
    // Best effort: a private server already stopped, or the stream was never made.
  }
}

export async function natsConnect(url = NATS_URL): Promise<NatsConnection> {
  return connect({ servers: url });
}

/** The audit.recorded events the service under test publishes, gathered as they arrive (core NATS sees what JetStream stores on the subject). */
export interface AuditCollector {
  seen: AuditRecord[];
  stop(): Promise<void>;
}

export async function collectAuditRecords(natsPrefix: string): Promise<AuditCollector> {
  const nc = await natsConnect();
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

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, { timeoutMs = 10_000, intervalMs = 100, what = 'condition' } = {}): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Start budget of one service process, and of a test hook that starts one or two. */
export const START_TIMEOUT_MS = 120_000;
export const HOOK_TIMEOUT_MS = 2 * START_TIMEOUT_MS + 30_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new-format contact_created body. */
export function contactCreated(contactId: string, email: string, funnelId?: string, extra: Record<string, unknown> = {}) {
  return { event: 'contact_created', ...(funnelId !== undefined && { funnel_id: funnelId }), contact: { id: contactId, email, ...extra } };
}

/** A campaign sequence's row (email_sequence_steps) as the engine leaves it. */
export interface SequenceRow {
  contact_id: string;
  state: 'waiting' | 'finished' | 'stopped';
  stop_reason: string | null;
  sent: number;
}

/**
 * The positive control of a "nothing more is sent" check on live campaign sequences: resolves once the sequence
 * of every one of `contactIds` has ended (its row finished or stopped, so the engine took every step it was going
 * to take), and returns the rows. Sleeping a while and finding no further email passes as well when the engine
 * has not reached the step yet.
 */
export async function waitUntilSequencesEnded(
  email: Pick<EmailUnderTest, 'db'>,
  contactIds: string[],
  { timeoutMs = 20_000 } = {},
): Promise<Map<string, SequenceRow>> {
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    const steps = client.db(email.db).collection<SequenceRow>('email_sequence_steps');
    return await waitFor(
      async () => {
        const rows = await steps.find({ contact_id: { $in: contactIds } }, { projection: { _id: 0 } }).toArray();
        const ended = rows.filter((r) => r.state !== 'waiting');
        return ended.length === contactIds.length ? new Map(ended.map((r) => [r.contact_id, r])) : null;
      },
      { timeoutMs, intervalMs: 100, what: `the sequences of ${contactIds.join(', ')} to end` },
    );
  } finally {
    await client.close();
  }
}

/**
 * The positive control of "the reminder step sends nothing more": resolves once no flow row (of these contacts, by
 * their numeric ids, or of any) is still at its reminder step, each having been taken and written.
 */
export async function waitUntilRemindersDone(email: Pick<EmailUnderTest, 'db'>, contactIds?: number[], { timeoutMs = 30_000 } = {}): Promise<void> {
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    const steps = client.db(email.db).collection('email_sequence_steps');
    const filter = { stage: 'remind', ...(contactIds && { contact_ref: { $in: contactIds } }) };
    await waitFor(async () => (await steps.countDocuments(filter)) === 0, { timeoutMs, intervalMs: 200, what: 'the reminder steps to have run' });
  } finally {
    await client.close();
  }
}
