/**
 * Cross-channel over NATS JetStream, with this file's own subject prefix: facts published by the email side
 * (source 'svc-email') reach svc-sms's durable consumer; svc-sms's own facts go out through its outbox.
 */
import type { SmsContact } from '@act/contracts/src/sms-api';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { call, waitUntilConsumersDrained } from '@act/service-kit/testing';
import { Subjects } from '@act/contracts';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, publishEvent, waitFor } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

const sms = useSmsWithTwilio('x');
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
});
afterAll(async () => {
  await nc?.close();
});

const contacts = async () => (await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone);
const envelope = () => ({ eventId: randomUUID(), source: 'svc-email', occurredAt: new Date().toISOString() });

describe('purchase seen by the email side', () => {
  it('stops the SMS sequence', async () => {
    await createFunnel(sms.svc.url, 'x-buy', [{ message: 'First' }, { message: 'Second', delay_minutes: 3 }]);
    await postContact(sms.svc.url, 'x-buy', 'xb-1', '+15552030001');
    // The positive control: a contact of the same funnel, posted just after, that nobody buys for.
    await postContact(sms.svc.url, 'x-buy', 'xb-control', '+15552030011');
    await waitFor(async () => sentTo('+15552030001').length === 1, 10_000);

    const js = nc.jetstream();
    const evt = {
      ...envelope(),
      funnelId: 'x-buy',
      contactId: 'xb-1',
      email: 'jane@example.com',
      phone: null,
      amount: 49,
      currency: 'USD',
      purchasedAt: new Date().toISOString(),
    };
    await js.publish(`${sms.t.natsPrefix}${Subjects.purchaseCreated}`, JSON.stringify(evt), { msgID: evt.eventId });
    // How fast (p99 <= 500 ms) is a figure of bench/cross-channel.mjs, not a bound here: a loaded machine is slow.
    await waitFor(async () => (await contacts()).find((x) => x.contact_id === 'xb-1')?.status === 'purchased', 5_000);

    // Once the control has had its second message, the bought contact's would have been due too: it did not go.
    await waitFor(async () => sentTo('+15552030011').length === 2, 15_000);
    expect(sentTo('+15552030011').map((m) => m.body)).toEqual(['First', 'Second']);
    expect(sentTo('+15552030001').map((m) => m.body)).toEqual(['First']);
    expect((await contacts()).find((c) => c.contact_id === 'xb-1')).toMatchObject({
      status: 'purchased',
      next_send_at: null,
    });
  });

  it('matches by phone when the contact id is the email side’s own', async () => {
    await createFunnel(sms.svc.url, 'x-phone', [{ message: 'Never' }], 3);
    await postContact(sms.svc.url, 'x-phone', 'xp-1', '+15552030002');
    await postContact(sms.svc.url, 'x-phone', 'xp-control', '+15552030012');
    await publishEvent(sms.t.natsPrefix, Subjects.purchaseCreated, {
      ...envelope(),
      funnelId: 'x-phone',
      contactId: 'email-99',
      email: null,
      phone: '+1 (555) 203-0002',
      purchasedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await contacts()).find((c) => c.contact_id === 'xp-1')?.status === 'purchased', 2_000);
    // The control, due at the same time, got its message: by then xp-1's would have gone.
    await waitFor(async () => sentTo('+15552030012').length === 1, 15_000);
    expect(sentTo('+15552030002')).toEqual([]);
  });

  it('ignores svc-sms’s own events', async () => {
    await createFunnel(sms.svc.url, 'x-own', [{ message: 'Hello' }], 2);
    await postContact(sms.svc.url, 'x-own', 'xo-1', '+15552030003');
    await publishEvent(sms.t.natsPrefix, Subjects.purchaseCreated, {
      ...envelope(),
      source: 'svc-sms',
      funnelId: 'x-own',
      contactId: 'xo-1',
      email: null,
      phone: null,
      purchasedAt: new Date().toISOString(),
    });
    await waitFor(async () => sentTo('+15552030003').length === 1, 10_000);
    // The contact is updated right after Twilio answers, so wait for that rather than for the message.
    await waitFor(async () => (await contacts()).find((c) => c.contact_id === 'xo-1')?.status === 'sent', 5_000);
  });
});

describe('contact seen by the email side', () => {
  it('creates the SMS contact for a funnel with an active SMS integration, once even when the funnel posted to both', async () => {
    await createFunnel(sms.svc.url, 'x-both', [{ message: 'Hi {first_name}' }], 2);
    const evt = {
      ...envelope(),
      funnelId: 'x-both',
      contactId: 'xc-1',
      email: 'jane@example.com',
      phone: '+15552030004',
      firstName: 'Jane',
      createdAt: new Date().toISOString(),
    };
    await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, evt);
    await postContact(sms.svc.url, 'x-both', 'xc-1', '+15552030004');
    await waitFor(async () => (await contacts()).some((c) => c.contact_id === 'xc-1'), 3_000);
    await waitFor(async () => sentTo('+15552030004').length === 1, 10_000);
    // The event was handled (acknowledged), not merely not reached yet, when the contacts are counted.
    await waitUntilConsumersDrained(await nc.jetstreamManager(), `${sms.t.natsPrefix}FUNNEL`);
    expect((await contacts()).filter((c) => c.contact_id === 'xc-1')).toHaveLength(1);
    expect(sentTo('+15552030004').map((m) => m.body)).toEqual(['Hi Jane']);
  });

  it('does nothing without a phone or without an active SMS integration', async () => {
    await createFunnel(sms.svc.url, 'x-nophone', [{ message: 'x' }], 60);
    await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, {
      ...envelope(),
      funnelId: 'x-nophone',
      contactId: 'xn-1',
      email: 'a@b.c',
      phone: null,
      createdAt: new Date().toISOString(),
    });
    await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, {
      ...envelope(),
      funnelId: 'x-unknown',
      contactId: 'xn-2',
      email: 'a@b.c',
      phone: '+15552030005',
      createdAt: new Date().toISOString(),
    });
    // The positive control, published last: one with a phone for the funnel's active integration. Once it is
    // there the consumer has handled the two before it.
    await publishEvent(sms.t.natsPrefix, Subjects.contactCreated, {
      ...envelope(),
      funnelId: 'x-nophone',
      contactId: 'xn-control',
      email: 'a@b.c',
      phone: '+15552030013',
      createdAt: new Date().toISOString(),
    });
    await waitFor(async () => (await contacts()).some((c) => c.contact_id === 'xn-control'), 5_000);
    expect((await contacts()).filter((c) => c.contact_id.startsWith('xn-')).map((c) => c.contact_id)).toEqual([
      'xn-control',
    ]);
  });
});

describe('facts published by svc-sms', () => {
  it('publishes contact and purchase events (with email) through the outbox', async () => {
    const received: { subject: string; data: Record<string, unknown> }[] = [];
    const sub = nc.subscribe(`${sms.t.natsPrefix}funnel.>`);
    (async () => {
      for await (const m of sub) received.push({ subject: m.subject, data: JSON.parse(m.string()) });
    })();
    await call(sms.svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: {
        event: 'contact_created',
        funnel_id: 'x-pub',
        contact: { id: 'pub-1', email: 'jane@example.com', phone: '+1 555 203 0006', first_name: 'Jane' },
      },
    });
    await call(sms.svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: {
        event_type: 'purchase_created',
        funnel_id: 'x-pub',
        contact_id: 'pub-1',
        email: 'jane@example.com',
        amount: 49.0,
        currency: 'USD',
      },
    });
    await waitFor(async () => received.length >= 2, 5_000);
    sub.unsubscribe();
    expect(received[0]).toEqual({
      subject: `${sms.t.natsPrefix}funnel.contact.created`,
      data: {
        eventId: expect.any(String),
        source: 'svc-sms',
        occurredAt: expect.any(String),
        funnelId: 'x-pub',
        contactId: 'pub-1',
        email: 'jane@example.com',
        phone: '+15552030006',
        firstName: 'Jane',
        createdAt: expect.any(String),
        // How the delivery was verified, so the email side can hold it to its own integration's signing rules.
        origin: { via: 'webhook', scheme: 'generic', verified: false, integrationId: null },
        // Not the product's own test delivery: the email side stores it as a real contact.
        test: false,
      },
    });
    expect(received[1]).toMatchObject({
      subject: `${sms.t.natsPrefix}funnel.purchase.created`,
      data: {
        source: 'svc-sms',
        funnelId: 'x-pub',
        contactId: 'pub-1',
        email: 'jane@example.com',
        amount: 49,
        currency: 'USD',
      },
    });
  });
});
