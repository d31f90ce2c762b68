import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort, testUser } from '@act/service-kit/testing';
import { ADAPTERS } from '@act/sources';
import { contactCreated, dropDb, MONGODB_URI, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/** Fixtures of the sources package, so both sides read the same documented shapes. */
const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src', source, 'fixtures', `${name}.json`), 'utf8'),
  );

let email: EmailUnderTest;
let publicUrl: string;
let recorder: { server: Server; requests: { headers: IncomingMessage['headers']; body: string }[] };

beforeAll(async () => {
  // Stands in for the gateway at PUBLIC_URL, so "Send test delivery" can be seen as the sender would post it.
  const port = await freePort();
  recorder = { server: createServer(), requests: [] };
  recorder.server.on('request', (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      recorder.requests.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","message":"recorded"}');
    });
  });
  await new Promise<void>((r) => recorder.server.listen(port, '127.0.0.1', r));
  publicUrl = `http://127.0.0.1:${port}`;
  email = await startEmail('sources', { PUBLIC_URL: publicUrl, SECRETS_KEY: 'test-secrets-key' });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  await new Promise((r) => recorder?.server.close(r));
  if (email) await dropDb(email.db);
});

const admin = (method: string, p: string, body?: unknown) => email.api(method, p, { body });
/** Posts raw bytes like a sender, with its headers. */
const deliver = (p: string, body: unknown, headers: Record<string, string> = {}) =>
  email.api('POST', p, {
    raw: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    user: null,
  });

async function newIntegration(funnelId: string) {
  const r = await admin('POST', '/api/webhook-integrations', { name: `Shop ${funnelId}`, funnel_id: funnelId });
  expect(r.status).toBe(201);
  const list = await admin('GET', '/api/webhook-integrations');
  const found = list.body.find((i: { id: number }) => i.id === r.body.id);
  const urlPath = new URL(found.webhook_url).pathname;
  return { id: r.body.id as number, url: found.webhook_url as string, path: urlPath };
}

async function contactsOf(integrationId: number) {
  const r = await admin('GET', `/api/contacts?page=1&pageSize=100&integration_id=${integrationId}`);
  expect(r.status).toBe(200);
  return r.body.items as { contact_id: string; email: string; status: string }[];
}

async function lastEvent(filter = '') {
  const r = await admin('GET', `/api/webhook-events?page=1&pageSize=5${filter}`);
  expect(r.status).toBe(200);
  return r.body.items[0];
}

function signCf(body: unknown, secret: string, nowMs = Date.now()) {
  const raw = JSON.stringify(body);
  return { raw, headers: ADAPTERS.clickfunnels2.sign(Buffer.from(raw), secret, nowMs) };
}

describe('per-integration URLs and the senders', () => {
  it('each integration has its own absolute URL under PUBLIC_URL; an unknown key is 404 and nothing is recorded', async () => {
    const shop = await newIntegration('cf-shop-1');
    expect(shop.url).toMatch(new RegExp(`^${publicUrl}/api/webhook/i/[A-Za-z0-9_-]{24}$`));
    const before = (await admin('GET', '/api/webhook-events?page=1&pageSize=1')).body.total;
    const r = await deliver('/api/webhook/i/AAAAAAAAAAAAAAAAAAAAAAAA', fixture('clickfunnels2', 'contact-identified'));
    expect(r).toMatchObject({ status: 404, body: { error: 'Unknown webhook URL' } });
    expect((await deliver('/api/webhook/i/..%2F', {})).status).toBe(404);
    expect((await admin('GET', '/api/webhook-events?page=1&pageSize=1')).body.total).toBe(before);
  });

  it('ClickFunnels 2.0 contact.identified (funnel_id null) to an integration URL creates the contact there, unsigned', async () => {
    const shop = await newIntegration('cf-shop-2');
    const r = await deliver(shop.path, fixture('clickfunnels2', 'contact-identified'));
    expect(r).toMatchObject({
      status: 200,
      body: { status: 'ok', message: 'Contact created', contact_id: '481516234', integration_id: shop.id },
    });
    expect(await contactsOf(shop.id)).toEqual([
      expect.objectContaining({ contact_id: '481516234', email: 'dana.reyes@example.com', status: 'pending' }),
    ]);
    expect(await lastEvent()).toMatchObject({
      type: 'contact_created',
      source: 'clickfunnels2',
      verification: 'unsigned',
      outcome: 'created',
      integration_id: shop.id,
      event_name: 'contact.identified',
    });
    // The checkout link from the contact's custom attribute is kept on its cart for {{recoveryUrl}}.
    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const doc = await client
        .db(email.db)
        .collection('contacts')
        .findOne({ integration_id: shop.id, contact_id: '481516234' });
      expect(doc?.cart?.recovery_url).toBe('https://shop.example.com/checkout/cart-8841');
    } finally {
      await client.close();
    }
  });

  it('a secret is write-only and admin-only; signed deliveries verify, wrong / missing / stale ones are 401 and create nothing', async () => {
    const shop = await newIntegration('cf-shop-3');
    const secret = '839d0d645bedefbaf76e3269d1b1141ef07683c179cc3bb0aee9348c90517a7';
    expect(
      (
        await email.api('PATCH', `/api/webhook-integrations/${shop.id}`, {
          body: { webhook_secret: secret },
          user: testUser,
        })
      ).status,
    ).toBe(403);
    expect((await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: 'short' })).body).toEqual({
      error: 'The signing secret must be 16 to 500 characters',
    });
    expect((await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: { $ne: 1 } })).status).toBe(
      400,
    );
    const set = await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    expect(set.status).toBe(200);
    expect(set.body.signing).toEqual({ has_secret: true, source: null, has_api_key: false, send_without_consent: false });
    const list = await admin('GET', '/api/webhook-integrations');
    expect(list.text).not.toContain(secret);
    expect(set.text).not.toContain(secret);
    // Stored sealed: a database dump alone does not show it.
    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const stored = await client.db(email.db).collection('webhook_integrations').findOne({ id: shop.id });
      expect(JSON.stringify(stored)).not.toContain(secret);
    } finally {
      await client.close();
    }

    const body = fixture('clickfunnels2', 'contact-identified');
    body.event_id = 'evt-signed-1';
    const wrong = signCf(body, 'not-the-secret-at-all');
    expect(await deliver(shop.path, wrong.raw, wrong.headers)).toMatchObject({
      status: 401,
      body: { error: 'Wrong signature (X-Webhook-ClickFunnels-Signature)' },
    });
    expect(await lastEvent()).toMatchObject({
      type: 'rejected',
      outcome: 'rejected',
      verification: 'rejected',
      verification_reason: 'Wrong signature (X-Webhook-ClickFunnels-Signature)',
    });
    expect(await deliver(shop.path, body)).toMatchObject({
      status: 401,
      body: { error: 'Missing signature (X-Webhook-ClickFunnels-Signature)' },
    });
    const stale = signCf(body, secret, Date.now() - 11 * 60_000);
    expect(await deliver(shop.path, stale.raw, stale.headers)).toMatchObject({
      status: 401,
      body: { error: expect.stringContaining('Stale signature') },
    });
    const tampered = signCf(body, secret);
    expect((await deliver(shop.path, tampered.raw.replace('Dana', 'Eve'), tampered.headers)).status).toBe(401);
    expect(await contactsOf(shop.id)).toEqual([]);

    const good = signCf(body, secret);
    expect(await deliver(shop.path, good.raw, good.headers)).toMatchObject({
      status: 200,
      body: { message: 'Contact created' },
    });
    expect(await lastEvent()).toMatchObject({ verification: 'verified', outcome: 'created', source: 'clickfunnels2' });

    // The sender's retry (same event_id, signed again) has no second effect.
    const again = signCf(body, secret);
    expect(await deliver(shop.path, again.raw, again.headers)).toMatchObject({
      status: 200,
      body: { duplicate: true, message: 'Duplicate delivery: already processed' },
    });
    expect(await lastEvent()).toMatchObject({ outcome: 'duplicate', verification: 'verified' });
    expect(await contactsOf(shop.id)).toHaveLength(1);
    // The rows link to the contact the deliveries named, except the refused ones: what they say is not the sender's.
    const rows = (await admin('GET', '/api/webhook-events?page=1&pageSize=50')).body.items as { verification: string; integration_id: number; contact_ref: number | null }[];
    const [contact] = (await contactsOf(shop.id)) as unknown as { id: number }[];
    const mine = rows.filter((r) => r.integration_id === shop.id);
    expect(mine.filter((r) => r.verification === 'verified').map((r) => r.contact_ref)).toEqual([contact!.id, contact!.id]);
    expect(mine.filter((r) => r.verification === 'rejected').map((r) => r.contact_ref)).toEqual([null, null, null, null]);

    // The order for that contact marks it purchased.
    const order = fixture('clickfunnels2', 'one-time-order-completed');
    const signedOrder = signCf(order, secret);
    expect(await deliver(shop.path, signedOrder.raw, signedOrder.headers)).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded', matched: 1 },
    });
    expect(await contactsOf(shop.id)).toEqual([
      expect.objectContaining({ contact_id: '481516234', status: 'purchased' }),
    ]);
    expect(await lastEvent()).toMatchObject({
      type: 'purchase_created',
      outcome: 'purchase',
      event_name: 'one-time-order.completed',
    });

    // Removing the secret accepts unsigned deliveries again.
    expect(
      (await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: null })).body.signing,
    ).toEqual({ has_secret: false, source: null, has_api_key: false, send_without_consent: false });
  });

  it('events that mean neither contact nor payment are 200 and recorded as ignored; malformed ones are 400 naming the field', async () => {
    const shop = await newIntegration('cf-shop-4');
    const r = await deliver(shop.path, fixture('clickfunnels2', 'course-enrollment-created'));
    expect(r).toMatchObject({
      status: 200,
      body: { status: 'ok', message: expect.stringMatching(/^Ignored: courses\/enrollment.created/) },
    });
    expect(await lastEvent()).toMatchObject({ type: 'ignored', outcome: 'ignored', source: 'clickfunnels2' });
    const bad = await deliver(shop.path, fixture('clickfunnels2', 'malformed-order-without-contact'));
    expect(bad).toMatchObject({
      status: 400,
      body: { error: 'data.contact is required for one-time-order.completed' },
    });
    expect(await lastEvent()).toMatchObject({
      type: 'invalid',
      outcome: 'invalid',
      verification_reason: 'data.contact is required for one-time-order.completed',
    });
  });

  it('Shopify: checkouts/create is a contact with its recovery link, orders/create purchases it; signed with base64 HMAC', async () => {
    const shop = await newIntegration('shopify-north');
    const secret = 'shpss_0123456789abcdef0123456789abcdef';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret, webhook_source: 'shopify' });
    const send = (topic: string, body: unknown, id: string) => {
      const raw = JSON.stringify(body);
      return deliver(shop.path, raw, {
        'X-Shopify-Topic': topic,
        'X-Shopify-Webhook-Id': id,
        'X-Shopify-Shop-Domain': 'north-goods.myshopify.com',
        ...ADAPTERS.shopify.sign(Buffer.from(raw), secret),
      });
    };
    expect(await send('checkouts/create', fixture('shopify', 'checkouts-create'), 'wh-a')).toMatchObject({
      status: 200,
      body: { message: 'Contact created', contact_id: 'b7e3c1a9d2f04e6c8a1b3d5f7e9c2a4b' },
    });
    const badRaw = JSON.stringify(fixture('shopify', 'checkouts-create'));
    expect(
      (await deliver(shop.path, badRaw, { 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Hmac-Sha256': 'AAAA' }))
        .status,
    ).toBe(401);
    expect(await send('checkouts/update', fixture('shopify', 'checkouts-update-completed'), 'wh-b')).toMatchObject({
      status: 200,
      body: { message: expect.stringMatching(/^Ignored/) },
    });
    expect(await send('orders/create', fixture('shopify', 'orders-create'), 'wh-c')).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded', matched: 1 },
    });
    expect(await send('orders/create', fixture('shopify', 'orders-create'), 'wh-c')).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect(await contactsOf(shop.id)).toEqual([
      expect.objectContaining({ email: 'sam.okafor@example.com', status: 'purchased' }),
    ]);
    const filtered = await admin('GET', '/api/webhook-events?page=1&pageSize=50&source=shopify&outcome=purchase');
    expect(filtered.body.items).toHaveLength(1);
    expect(filtered.body.items[0]).toMatchObject({
      source: 'shopify',
      outcome: 'purchase',
      verification: 'verified',
      event_name: 'orders/create',
    });
    expect((await admin('GET', '/api/webhook-events?source=nope')).body).toEqual({
      error: 'source must be one of generic, clickfunnels2, clickfunnels_classic, shopify, stripe, woocommerce',
    });
  });

  it('ClickFunnels Classic contact and purchase on the plain URL match by numeric funnel_id', async () => {
    const shop = await newIntegration('90210');
    expect(await deliver('/api/webhook', fixture('clickfunnels-classic', 'contact'))).toMatchObject({
      status: 200,
      body: { message: 'Contact created', integration_id: shop.id },
    });
    expect(await deliver('/api/webhook', fixture('clickfunnels-classic', 'purchase'))).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded', matched: 1 },
    });
    expect(await lastEvent()).toMatchObject({ source: 'clickfunnels_classic', outcome: 'purchase' });
  });

  it('"Require signed deliveries" refuses unsigned spec-format deliveries on the plain URL; admin only', async () => {
    expect(
      (await email.api('PUT', '/api/webhook-signing', { body: { require_signed: true }, user: testUser })).status,
    ).toBe(403);
    expect((await admin('PUT', '/api/webhook-signing', { require_signed: 'yes' })).body).toEqual({
      error: 'require_signed must be true or false',
    });
    expect((await admin('PUT', '/api/webhook-signing', { require_signed: true })).body).toEqual({
      require_signed: true,
    });
    expect((await email.api('GET', '/api/webhook-signing', { user: testUser })).body).toEqual({ require_signed: true });
    try {
      // Integrations are cached for up to a second; the change shows within that.
      await new Promise((r) => setTimeout(r, 1_200));
      const r = await deliver('/api/webhook', contactCreated('req-1', 'req1@example.com'));
      expect(r).toMatchObject({
        status: 401,
        body: { error: expect.stringContaining('signed deliveries are required') },
      });
    } finally {
      await admin('PUT', '/api/webhook-signing', { require_signed: false });
    }
    await new Promise((r) => setTimeout(r, 1_200));
    // The positive control: the same delivery passes once the setting is off again.
    expect((await deliver('/api/webhook', contactCreated('req-1', 'req1@example.com'))).status).toBe(200);
  });

  it('the spec format signed by our scheme: X-Signature sha256=<hex> over "{timestamp}.{body}"', async () => {
    const shop = await newIntegration('relay-1');
    const secret = 'relay-secret-0123456789';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    const raw = JSON.stringify(contactCreated('g-1', 'g1@example.com', 'relay-1'));
    const headers = { ...ADAPTERS.generic.sign(Buffer.from(raw), secret), 'X-Webhook-Id': 'relay-delivery-1' };
    expect(await deliver('/api/webhook', raw, headers)).toMatchObject({
      status: 200,
      body: { message: 'Contact created', integration_id: shop.id },
    });
    expect(await deliver('/api/webhook', raw, headers)).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await deliver('/api/webhook', raw)).status).toBe(401);
  });

  it('replay identity is signed: a captured delivery posted again under a new X-Webhook-Id is a duplicate', async () => {
    const shop = await newIntegration('relay-replay');
    const secret = 'relay-replay-secret-0123456789';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    const raw = JSON.stringify(contactCreated('rr-1', 'rr1@example.com', 'relay-replay'));
    const signed = ADAPTERS.generic.sign(Buffer.from(raw), secret);
    expect(await deliver('/api/webhook', raw, { ...signed, 'X-Webhook-Id': 'relay-rr-1' })).toMatchObject({
      status: 200,
      body: { message: 'Contact created' },
    });
    // The attacker's copy: same signed timestamp and body, an id of their own.
    expect(await deliver('/api/webhook', raw, { ...signed, 'X-Webhook-Id': 'attacker-new-id' })).toMatchObject({
      status: 200,
      body: { duplicate: true, message: 'Duplicate delivery: already processed' },
    });
    expect(await deliver('/api/webhook', raw, signed)).toMatchObject({ status: 200, body: { duplicate: true } });
    // The sender's own retry, signed again a few seconds later under its id: still recognised.
    const resigned = ADAPTERS.generic.sign(Buffer.from(raw), secret, Date.now() - 5_000);
    expect(await deliver('/api/webhook', raw, { ...resigned, 'X-Webhook-Id': 'relay-rr-1' })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    // The attacker's id was not spent by the refused replay: the sender's genuine delivery carrying it is applied.
    const next = JSON.stringify(contactCreated('rr-2', 'rr2@example.com', 'relay-replay'));
    expect(
      await deliver('/api/webhook', next, { ...ADAPTERS.generic.sign(Buffer.from(next), secret), 'X-Webhook-Id': 'attacker-new-id' }),
    ).toMatchObject({ status: 200, body: { message: 'Contact created' } });
    expect((await contactsOf(shop.id)).map((c: { contact_id: string }) => c.contact_id).sort()).toEqual(['rr-1', 'rr-2']);
  });

  it('Shopify on an integration whose sender is not pinned: the signed body again under a new X-Shopify-Webhook-Id is a duplicate', async () => {
    const shop = await newIntegration('shopify-replay');
    const secret = 'shopify-replay-secret-0123456789';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    const sample = ADAPTERS.shopify.sample({ email: 'sr@example.com', phone: '+15550001234', firstName: 'Sam', funnelId: null, nonce: 'a1b2c3d4' });
    const raw = JSON.stringify(sample.body);
    const headers = { ...sample.headers, ...ADAPTERS.shopify.sign(Buffer.from(raw), secret) };
    expect(await deliver(shop.path, raw, headers)).toMatchObject({ status: 200, body: { message: 'Contact created' } });
    expect(await deliver(shop.path, raw, { ...headers, 'X-Shopify-Webhook-Id': 'replayed-under-a-new-id' })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    // Nor under another topic: the topic header is not signed either.
    expect(await deliver(shop.path, raw, { ...headers, 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Webhook-Id': 'x2' })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
    expect(await contactsOf(shop.id)).toEqual([expect.objectContaining({ status: 'pending' })]);
  });

  it("an unsigned purchase taken by another integration does not mark a signed integration's contact by its email", async () => {
    const shop = await newIntegration('signed-mail');
    const secret = 'signed-mail-secret-0123456789';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    const raw = JSON.stringify(contactCreated('sm-1', 'buyer@example.com', 'signed-mail'));
    expect((await deliver('/api/webhook', raw, ADAPTERS.generic.sign(Buffer.from(raw), secret))).status).toBe(200);
    // No funnel id: the unsigned default integration takes it, and would match by email across integrations.
    const forged = { event: 'purchase_created', contact: { id: 'forged-1', email: 'buyer@example.com' } };
    expect(await deliver('/api/webhook', forged)).toMatchObject({
      status: 200,
      body: { message: 'Purchase recorded; no matching contact', matched: 0 },
    });
    expect(await contactsOf(shop.id)).toEqual([expect.objectContaining({ contact_id: 'sm-1', status: 'pending' })]);
    // Positive control: signed, the same purchase by email marks it.
    const signed = JSON.stringify({ event: 'purchase_created', funnel_id: 'signed-mail', contact: { id: 'other-id', email: 'buyer@example.com' } });
    expect(await deliver('/api/webhook', signed, ADAPTERS.generic.sign(Buffer.from(signed), secret))).toMatchObject({
      status: 200,
      body: { matched: 1 },
    });
    expect(await contactsOf(shop.id)).toEqual([expect.objectContaining({ contact_id: 'sm-1', status: 'purchased' })]);
  });

  it('Send test delivery signs a sample with the secret and posts it to the public URL, like the sender', async () => {
    const shop = await newIntegration('test-delivery-1');
    const secret = 'td-secret-0123456789abcdef';
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    recorder.requests.length = 0;
    const r = await email.api('POST', `/api/webhook-integrations/${shop.id}/test-delivery`, {
      body: { source: 'clickfunnels2' },
      user: testUser,
    });
    expect(r).toMatchObject({
      status: 200,
      body: { source: 'clickfunnels2', signed: true, url: shop.url, status: 200, body: { message: 'recorded' } },
    });
    expect(r.text).not.toContain(secret);
    const [posted] = recorder.requests;
    const headers = Object.fromEntries(Object.entries(posted!.headers).map(([k, v]) => [k, String(v)]));
    expect(ADAPTERS.clickfunnels2.verify(Buffer.from(posted!.body), headers, secret)).toEqual({ ok: true });
    expect(JSON.parse(posted!.body)).toMatchObject({
      event_type: 'contact.identified',
      data: { email_address: expect.stringMatching(/@example\.com$/) },
    });
    const shopify = await email.api('POST', `/api/webhook-integrations/${shop.id}/test-delivery`, {
      body: { source: 'shopify' },
    });
    expect(shopify.body).toMatchObject({ source: 'shopify', signed: true });
    expect(
      (await email.api('POST', `/api/webhook-integrations/${shop.id}/test-delivery`, { body: { source: 'other' } }))
        .status,
    ).toBe(400);
    expect((await email.api('POST', '/api/webhook-integrations/999999/test-delivery', { body: {} })).status).toBe(404);
  });

  it.each([
    ['stripe', 'whsec_td_0123456789abcdefghij', 'checkout.session.expired'],
    ['woocommerce', 'wc-td-secret-0123456789', 'order.created'],
  ] as const)('Send test delivery for %s signs its documented sample as the sender does, and the sample is taken', async (source, secret, eventName) => {
    const shop = await newIntegration(`test-delivery-${source}`);
    await admin('PATCH', `/api/webhook-integrations/${shop.id}`, { webhook_secret: secret });
    recorder.requests.length = 0;
    const r = await email.api('POST', `/api/webhook-integrations/${shop.id}/test-delivery`, { body: { source }, user: testUser });
    expect(r).toMatchObject({ status: 200, body: { source, signed: true, url: shop.url, status: 200 } });
    const [posted] = recorder.requests;
    const headers = Object.fromEntries(Object.entries(posted!.headers).map(([k, v]) => [k, String(v)]));
    expect(ADAPTERS[source].verify(Buffer.from(posted!.body), headers, secret)).toEqual({ ok: true });
    // What the recorder got, handed to the service as the gateway would: a verified contact with its cart.
    const forward = Object.fromEntries(Object.entries(headers).filter(([k]) => /^(stripe-|x-wc-|x-act-test-delivery$)/.test(k)));
    const taken = await deliver(shop.path, posted!.body, forward);
    expect(taken).toMatchObject({ status: 200, body: { status: 'ok', message: 'Contact created' } });
    expect(await lastEvent()).toMatchObject({ source, verification: 'verified', event_name: eventName });
    // The product's own sample: its contact is stored as a test.
    expect(await contactsOf(shop.id)).toEqual([expect.objectContaining({ email: expect.stringMatching(/^test-delivery\+/), test: true })]);
  });
});
