import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call, testUser, type ServiceProcess } from '@act/service-kit/testing';
import { ADAPTERS } from '@act/sources';
import { dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'),
  );

let t: SmsTestEnv;
let svc: ServiceProcess;
beforeAll(async () => {
  t = smsTestEnv('sources', null, { SECRETS_KEY: 'sms-test-secrets-key' });
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const api = (method: string, p: string, body?: unknown) => call(svc.url, method, p, { body });
const deliver = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  call(svc.url, 'POST', p, {
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    user: null,
  });

async function newIntegration(funnelId: string) {
  const r = await api('POST', '/api/sms-webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  return { id: r.body.id as number, url: r.body.webhook_url as string, path: new URL(r.body.webhook_url).pathname };
}

async function contactsOf(integrationId: number) {
  const r = await api('GET', '/api/sms-contacts');
  return (r.body as { integration_id: number; contact_id: string; phone: string; status: string }[]).filter(
    (c) => c.integration_id === integrationId,
  );
}

async function lastEvent(filter = '') {
  const r = await api('GET', `/api/sms-webhook-events?page=1&pageSize=25${filter}`);
  expect(r.status).toBe(200);
  return r.body.items[0];
}

const signCf = (body: unknown, secret: string, nowMs = Date.now()) => {
  const raw = JSON.stringify(body);
  return { raw, headers: ADAPTERS.clickfunnels2.sign(Buffer.from(raw), secret, nowMs) };
};

describe('SMS side: senders, per-integration URLs and signatures', () => {
  it('the integration URL takes a ClickFunnels 2.0 contact whatever its funnel_id; unknown keys are 404', async () => {
    const shop = await newIntegration('sms-cf-1');
    expect(shop.url).toMatch(/^http:\/\/sms\.test\.local\/api\/sms\/webhook\/i\/[A-Za-z0-9_-]{24}$/);
    const r = await deliver(shop.path, fixture('clickfunnels2', 'contact-identified'));
    expect(r).toMatchObject({ status: 200, body: { message: 'SMS contact created', contact_id: '481516234' } });
    expect(await contactsOf(shop.id)).toEqual([
      expect.objectContaining({ contact_id: '481516234', phone: '+14155550123', status: 'pending' }),
    ]);
    expect(await lastEvent()).toMatchObject({
      type: 'contact',
      source: 'clickfunnels2',
      verification: 'unsigned',
      outcome: 'created',
      integration_id: shop.id,
    });
    expect((await deliver('/api/sms/webhook/i/BBBBBBBBBBBBBBBBBBBBBBBB', {})).status).toBe(404);
  });

  it('with a secret: wrong, missing and stale signatures are 401 and create nothing; signed ones verify; replays do nothing', async () => {
    const shop = await newIntegration('sms-cf-2');
    const secret = 'cf2-sms-secret-0123456789abcdef';
    const forbidden = await call(svc.url, 'PATCH', `/api/sms-webhook-integrations/${shop.id}`, {
      body: { webhook_secret: secret },
      user: testUser,
    });
    expect(forbidden.status).toBe(403);
    const set = await api('PATCH', `/api/sms-webhook-integrations/${shop.id}`, { webhook_secret: secret });
    expect(set.status).toBe(200);
    expect(set.body.signing).toEqual({ has_secret: true, source: null, has_api_key: false, send_without_consent: false });
    expect(set.text).not.toContain(secret);
    expect((await api('GET', '/api/sms-webhook-integrations')).text).not.toContain(secret);

    const body = fixture('clickfunnels2', 'contact-identified');
    body.event_id = 'sms-evt-1';
    const wrong = signCf(body, 'another-secret-entirely');
    expect(await deliver(shop.path, wrong.raw, wrong.headers)).toMatchObject({
      status: 401,
      body: { error: 'Wrong signature (X-Webhook-ClickFunnels-Signature)' },
    });
    expect((await deliver(shop.path, body)).status).toBe(401);
    const stale = signCf(body, secret, Date.now() - 20 * 60_000);
    expect((await deliver(shop.path, stale.raw, stale.headers)).body.error).toMatch(/^Stale signature/);
    expect(await contactsOf(shop.id)).toEqual([]);
    expect(await lastEvent()).toMatchObject({ type: 'rejected', outcome: 'rejected', verification: 'rejected' });

    const good = signCf(body, secret);
    expect((await deliver(shop.path, good.raw, good.headers)).body.message).toBe('SMS contact created');
    const again = signCf(body, secret);
    expect(await deliver(shop.path, again.raw, again.headers)).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect(await lastEvent()).toMatchObject({ outcome: 'duplicate', verification: 'verified' });

    const order = signCf(fixture('clickfunnels2', 'one-time-order-completed'), secret);
    expect(await deliver(shop.path, order.raw, order.headers)).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded; SMS sequence stopped', updated: 1 },
    });
    expect(await contactsOf(shop.id)).toEqual([expect.objectContaining({ status: 'purchased' })]);
  });

  it('replay identity is signed: our scheme replayed under a new X-Webhook-Id, Shopify under a new X-Shopify-Webhook-Id, are duplicates', async () => {
    const shop = await newIntegration('sms-replay');
    const secret = 'sms-replay-secret-0123456789';
    expect((await api('PATCH', `/api/sms-webhook-integrations/${shop.id}`, { webhook_secret: secret })).status).toBe(200);
    const raw = JSON.stringify({ event: 'contact_created', funnel_id: 'sms-replay', contact: { id: 'rp-1', phone: '+15552070001' } });
    const signed = ADAPTERS.generic.sign(Buffer.from(raw), secret);
    expect(await deliver('/api/sms/webhook', raw, { ...signed, 'X-Webhook-Id': 'sender-1' })).toMatchObject({
      status: 200,
      body: { message: 'SMS contact created' },
    });
    expect(await deliver('/api/sms/webhook', raw, { ...signed, 'X-Webhook-Id': 'attacker-1' })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect(await lastEvent()).toMatchObject({ outcome: 'duplicate', verification: 'verified' });

    // Shopify to the integration's own URL, its sender not pinned (recognised from the headers).
    const sample = ADAPTERS.shopify.sample({ email: 'rp@example.com', phone: '+15552070002', firstName: 'Rae', funnelId: null, nonce: 'feedbeef' });
    const body = JSON.stringify(sample.body);
    const headers = { ...sample.headers, ...ADAPTERS.shopify.sign(Buffer.from(body), secret) };
    expect(await deliver(shop.path, body, headers)).toMatchObject({ status: 200, body: { message: 'SMS contact created' } });
    expect(await deliver(shop.path, body, { ...headers, 'X-Shopify-Webhook-Id': 'attacker-2' })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect((await contactsOf(shop.id)).map((c) => c.contact_id).sort()).toEqual(['rp-1', 'testfeedbeef']);
  });

  it('Shopify checkouts/create then orders/create; a checkout without a phone is ignored on the SMS side', async () => {
    const shop = await newIntegration('sms-shopify');
    const secret = 'shpss_sms_0123456789abcdef';
    await api('PATCH', `/api/sms-webhook-integrations/${shop.id}`, { webhook_secret: secret });
    const send = (topic: string, body: unknown, id: string) => {
      const raw = JSON.stringify(body);
      return deliver(shop.path, raw, {
        'X-Shopify-Topic': topic,
        'X-Shopify-Webhook-Id': id,
        ...ADAPTERS.shopify.sign(Buffer.from(raw), secret),
      });
    };
    expect(await send('checkouts/create', fixture('shopify', 'checkouts-create'), 's-1')).toMatchObject({
      status: 200,
      body: { message: 'SMS contact created', contact_id: 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b' },
    });
    const noPhone = {
      ...fixture('shopify', 'checkouts-create'),
      token: 'nophone1',
      customer: null,
      billing_address: null,
    };
    expect(await send('checkouts/create', noPhone, 's-2')).toMatchObject({
      status: 200,
      body: { message: 'Ignored: The contact has no phone number: nothing to send on the SMS side' },
    });
    expect(await send('orders/create', fixture('shopify', 'orders-create'), 's-3')).toMatchObject({
      status: 200,
      body: { updated: 1 },
    });
    expect(await contactsOf(shop.id)).toEqual([
      expect.objectContaining({ phone: '+16475550143', status: 'purchased' }),
    ]);
    const filtered = await api('GET', '/api/sms-webhook-events?page=1&pageSize=50&source=shopify&outcome=ignored');
    expect(filtered.body.items).toHaveLength(1);
    expect((await api('GET', '/api/sms-webhook-events?page=1&verification=maybe')).status).toBe(400);
  });

  it('"Require signed deliveries" refuses the spec format unsigned; admin only; the spec format still works after', async () => {
    await newIntegration('sms-req');
    const delivery = {
      event: 'contact_created',
      funnel_id: 'sms-req',
      contact: { id: 'r1', phone: '+14155550177', email: 'r1@example.com' },
    };
    expect(
      (await call(svc.url, 'PUT', '/api/sms/webhook-signing', { body: { require_signed: true }, user: testUser }))
        .status,
    ).toBe(403);
    expect((await api('PUT', '/api/sms/webhook-signing', { require_signed: true })).body).toEqual({
      require_signed: true,
    });
    try {
      await new Promise((r) => setTimeout(r, 1_200));
      const refused = await deliver('/api/sms/webhook', delivery);
      expect(refused).toMatchObject({
        status: 401,
        body: { error: expect.stringContaining('signed deliveries are required') },
      });
    } finally {
      await api('PUT', '/api/sms/webhook-signing', { require_signed: false });
    }
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await deliver('/api/sms/webhook', delivery)).toMatchObject({
      status: 200,
      body: { message: 'SMS contact created' },
    });
  });

  it('the test delivery endpoint validates its source and the integration', async () => {
    const shop = await newIntegration('sms-td');
    expect((await api('POST', `/api/sms-webhook-integrations/${shop.id}/test-delivery`, { source: 'x' })).status).toBe(
      400,
    );
    expect((await api('POST', '/api/sms-webhook-integrations/999999/test-delivery', {})).status).toBe(404);
    // PUBLIC_URL here is an unreachable test host: the failure is a clear 502, not a crash or a leaked resolver error.
    const r = await api('POST', `/api/sms-webhook-integrations/${shop.id}/test-delivery`, {});
    expect(r).toMatchObject({ status: 502, body: { error: `The test delivery could not reach ${shop.url}` } });
  });
});
