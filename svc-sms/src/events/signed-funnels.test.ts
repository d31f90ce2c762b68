/**
 * Signatures mean the same on every path: svc-email and svc-sms run together on one NATS prefix, and a delivery
 * posted unsigned to the OTHER side's URL must not reach a funnel whose integration on this side requires signing
 * (a secret, or the side's "Require signed deliveries"). The refusal is recorded in the side's Webhook Events list
 * with its reason; a verified delivery still reaches both sides, whichever URL it came in on.
 */
import { randomUUID } from 'node:crypto';
import type { SmsContact, SmsWebhookEvent } from '@act/contracts/src/sms-api';
import { Subjects } from '@act/contracts';
import { call, startServiceProcess, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import { ADAPTERS } from '@act/sources';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, dropDb, publishEvent, waitFor } from '../test/helpers';

jest.setTimeout(180_000);

const SECRETS_KEY = 'signed-funnels-secrets-key';
const sms = useSmsWithTwilio('sigf', { env: { SECRETS_KEY, SMS_INTEGRATION_CACHE_MS: '0' }, sending: false });
let email: ServiceProcess;
const emailDb = testDbName('email_sigf');

beforeAll(async () => {
  // The email side on the same prefix (the same stream): it publishes what it takes in, svc-sms consumes it.
  email = await startServiceProcess(
    'svc-email',
    {
      MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
      MONGODB_DB: emailDb,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_PREFIX: sms.t.natsPrefix,
      SECRETS_KEY,
      INTEGRATION_CACHE_MS: '0',
      REMINDER_DELAY_UNIT_MS: '1000',
    },
    120_000,
  );
}, 150_000);
afterAll(async () => {
  await email?.stop();
  await dropDb(emailDb);
});

const smsContacts = async () => (await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
const smsEvents = async () => (await call(sms.svc.url, 'GET', '/api/sms-webhook-events')).body as SmsWebhookEvent[];
type EmailRow = { contact_id: string; status: string; integration_id: number };
const emailContacts = async () => (await call(email.url, 'GET', '/api/contacts')).body as EmailRow[];
type EmailEvent = { event_name: string | null; outcome: string; verification: string; verification_reason: string | null; payload: string; integration_id: number | null };
const emailEvents = async () => (await call(email.url, 'GET', '/api/webhook-events')).body as EmailEvent[];

/** Posts raw bytes like a sender (no signed-in user), optionally signed by our scheme. */
function post(base: string, path: string, body: unknown, secret?: string) {
  const raw = JSON.stringify(body);
  const headers = secret ? ADAPTERS.generic.sign(Buffer.from(raw), secret) : {};
  return call(base, 'POST', path, { user: null, raw, headers });
}
const contact = (funnel: string, id: string, phone: string, email?: string) => ({
  event: 'contact_created',
  funnel_id: funnel,
  contact: { id, phone, first_name: 'Jane', ...(email && { email }) },
});
const purchase = (funnel: string, id: string) => ({ event: 'purchase_created', funnel_id: funnel, contact: { id } });
const refusedOn = (events: { event_name?: string | null; outcome?: string; payload: string }[], subject: string, contactId: string) =>
  events.find((e) => e.event_name === subject && e.outcome === 'rejected' && e.payload.includes(`"contactId":"${contactId}"`));

describe('a funnel signed on the SMS side', () => {
  const SMS_SECRET = 'sms-side-secret-0123456789';
  const EMAIL_SECRET = 'email-side-secret-0123456789';
  let smsIntegrationId: number;

  beforeAll(async () => {
    const { integration } = await createFunnel(sms.svc.url, 'sig-a', [{ message: 'Come back' }], 600);
    smsIntegrationId = integration.id;
    expect((await call(sms.svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, { body: { webhook_secret: SMS_SECRET } })).status).toBe(200);
  });

  it('takes no unsigned contact posted to the email URL: not created on SMS, refused with its reason in SMS Webhook Events', async () => {
    // The SMS URL itself refuses it.
    expect((await post(sms.svc.url, '/api/sms/webhook', contact('sig-a', 'u-1', '+15552050001'))).status).toBe(401);
    // The email URL takes it for the email side (its default integration is unsigned), and relays it.
    const r = await post(email.url, '/api/webhook', contact('sig-a', 'u-1', '+15552050001', 'u1@example.com'));
    expect(r.status).toBe(200);
    const refused = await waitFor(async () => refusedOn(await smsEvents(), Subjects.contactCreated, 'u-1'), 15_000);
    expect(refused).toMatchObject({
      type: 'rejected',
      verification: 'rejected',
      integration_id: smsIntegrationId,
      verification_reason: expect.stringContaining('requires signed deliveries'),
    });
    expect((await smsContacts()).some((c) => c.contact_id === 'u-1')).toBe(false);
  });

  it('takes a signed contact on its own URL, and no unsigned purchase for it posted to the email URL', async () => {
    expect((await post(sms.svc.url, '/api/sms/webhook', contact('sig-a', 's-1', '+15552050002'), SMS_SECRET)).status).toBe(200);
    const r = await post(email.url, '/api/webhook', purchase('sig-a', 's-1'));
    expect(r.status).toBe(200);
    await waitFor(async () => refusedOn(await smsEvents(), Subjects.purchaseCreated, 's-1'), 15_000);
    expect((await smsContacts()).find((c) => c.contact_id === 's-1')).toMatchObject({ status: 'pending' });
  });

  it('an event published before events carried their origin reads as unverified', async () => {
    await publishEvent(sms.t.natsPrefix, Subjects.purchaseCreated, {
      eventId: randomUUID(),
      source: 'svc-email',
      occurredAt: new Date().toISOString(),
      funnelId: 'sig-a',
      contactId: 's-1',
      email: null,
      phone: null,
      purchasedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await smsEvents()).filter((e) => refusedOn([e], Subjects.purchaseCreated, 's-1')).length >= 2, 15_000);
    expect((await smsContacts()).find((c) => c.contact_id === 's-1')).toMatchObject({ status: 'pending' });
  });

  it('a delivery verified on the email side reaches the SMS side (contact, then purchase); a signed SMS delivery reaches the email side', async () => {
    const made = await call(email.url, 'POST', '/api/webhook-integrations', { body: { name: 'Email sig-a', funnel_id: 'sig-a' } });
    expect(made.status).toBe(201);
    expect((await call(email.url, 'PATCH', `/api/webhook-integrations/${made.body.id}`, { body: { webhook_secret: EMAIL_SECRET } })).status).toBe(200);
    // Unsigned, with the integration's secret set, is refused by the email side itself; signed with the email side's
    // secret, it goes to both sides.
    expect((await post(email.url, '/api/webhook', contact('sig-a', 'v-1', '+15552050003', 'v1@example.com'))).status).toBe(401);
    expect((await post(email.url, '/api/webhook', contact('sig-a', 'v-1', '+15552050003', 'v1@example.com'), EMAIL_SECRET)).status).toBe(200);
    await waitFor(async () => (await smsContacts()).some((c) => c.contact_id === 'v-1'), 15_000);
    expect((await post(email.url, '/api/webhook', purchase('sig-a', 's-1'), EMAIL_SECRET)).status).toBe(200);
    await waitFor(async () => (await smsContacts()).find((c) => c.contact_id === 's-1')?.status === 'purchased', 15_000);

    // The other way: signed on the SMS URL, the email side (signed too) takes it.
    expect((await post(sms.svc.url, '/api/sms/webhook', contact('sig-a', 'v-2', '+15552050004', 'v2@example.com'), SMS_SECRET)).status).toBe(200);
    await waitFor(async () => (await emailContacts()).some((c) => c.contact_id === 'v-2' && c.integration_id === made.body.id), 15_000);
  });
});

describe('a funnel signed on the email side', () => {
  it('takes no unsigned contact posted to the SMS URL, and records why in its Webhook Events', async () => {
    await createFunnel(sms.svc.url, 'sig-r', [{ message: 'Come back' }], 600);
    const made = await call(email.url, 'POST', '/api/webhook-integrations', { body: { name: 'Email sig-r', funnel_id: 'sig-r' } });
    expect(made.status).toBe(201);
    expect((await call(email.url, 'PATCH', `/api/webhook-integrations/${made.body.id}`, { body: { webhook_secret: 'email-sig-r-secret-0123456789' } })).status).toBe(200);
    expect((await post(sms.svc.url, '/api/sms/webhook', contact('sig-r', 'r-1', '+15552050005', 'r1@example.com'))).status).toBe(200);
    const refused = await waitFor(async () => refusedOn(await emailEvents(), Subjects.contactCreated, 'r-1'), 15_000);
    expect(refused).toMatchObject({ verification: 'rejected', integration_id: made.body.id, verification_reason: expect.stringContaining('requires signed deliveries') });
    expect((await emailContacts()).some((c) => c.contact_id === 'r-1')).toBe(false);
    // Positive control: the SMS side took it (its integration is unsigned).
    expect((await smsContacts()).some((c) => c.contact_id === 'r-1')).toBe(true);
  });
});

describe('"Require signed deliveries" on the SMS side', () => {
  it('holds a funnel whose SMS integration has no secret to verified deliveries from the email URL too', async () => {
    await createFunnel(sms.svc.url, 'sig-q', [{ message: 'Come back' }], 600);
    // Positive control first: with the setting off, the email URL's unsigned contact reaches the unsigned SMS funnel.
    expect((await post(email.url, '/api/webhook', contact('sig-q', 'q-1', '+15552050006', 'q1@example.com'))).status).toBe(200);
    await waitFor(async () => (await smsContacts()).some((c) => c.contact_id === 'q-1'), 15_000);
    expect((await call(sms.svc.url, 'PUT', '/api/sms/webhook-signing', { body: { require_signed: true } })).status).toBe(200);
    try {
      expect((await post(email.url, '/api/webhook', contact('sig-q', 'q-2', '+15552050007', 'q2@example.com'))).status).toBe(200);
      await waitFor(async () => refusedOn(await smsEvents(), Subjects.contactCreated, 'q-2'), 15_000);
      expect((await smsContacts()).some((c) => c.contact_id === 'q-2')).toBe(false);
    } finally {
      await call(sms.svc.url, 'PUT', '/api/sms/webhook-signing', { body: { require_signed: false } });
    }
  });
});
