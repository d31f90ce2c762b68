/**
 * The start-up of the tests that play the SMS side: svc-email once its stream is there, and a NATS connection to
 * publish what the SMS service would, as it would.
 */
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest } from './helpers';

export interface EmailBesideSms extends EmailUnderTest {
  nc: NatsConnection;
  /** Publishes an event of the SMS service on `subject` (its envelope filled in). */
  fromSms(subject: string, payload: Record<string, unknown>): Promise<void>;
  /** Closes the connection, stops the service and drops its database. */
  stop(): Promise<void>;
}

export async function startEmailBesideSms(label: string): Promise<EmailBesideSms> {
  const email = await startEmail(label);
  const nc = await natsConnect();
  await waitFor(async () => (await nc.jetstreamManager()).streams.info(`${email.prefix}FUNNEL`), { what: 'stream' });
  return {
    ...email,
    nc,
    async fromSms(subject, payload) {
      await nc.jetstream().publish(`${email.prefix}${subject}`, JSON.stringify({ eventId: randomUUID(), source: 'svc-sms', occurredAt: new Date().toISOString(), ...payload }));
    },
    async stop() {
      await nc.close();
      await email.svc.stop();
      await dropDb(email.db);
    },
  };
}
