import { testUser } from '@act/service-kit/testing';
import { resolveCredentials } from '../providers/resend';
import { startFakeResend, type FakeResend } from '@act/testing';
import { MongoClient } from 'mongodb';
import { collectAuditRecords, dropDb, MONGODB_URI, startEmail, waitFor, type AuditCollector, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';
import { verifyUnsubscribeToken } from '../unsubscribe/token';
import { oneClickWarning } from './service';

const NOT_CONFIGURED = 'Resend is not configured: set RESEND_API_KEY and RESEND_FROM';

describe('one-click unsubscribe needs https', () => {
  it('warns only with live sending on and a plain-http PUBLIC_URL that is not this machine', () => {
    expect(oneClickWarning(true, 'http://carts.example.com')).toMatch(/^PUBLIC_URL \(http:\/\/carts\.example\.com\) is not https/);
    expect(oneClickWarning(false, 'http://carts.example.com')).toBeNull();
    expect(oneClickWarning(true, 'https://carts.example.com')).toBeNull();
    expect(oneClickWarning(true, 'http://127.0.0.1:8080')).toBeNull();
    expect(oneClickWarning(true, 'http://localhost:8080')).toBeNull();
  });
});

describe('Resend credentials', () => {
  it('the environment wins over stored values, field by field', () => {
    expect(
      resolveCredentials({ envApiKey: 'env-key', envFrom: null }, { api_key: 'stored-key', from: 'stored@x.co' }),
    ).toEqual({ apiKey: 'env-key', apiKeySource: 'env', from: 'stored@x.co', fromSource: 'stored' });
    expect(resolveCredentials({ envApiKey: null, envFrom: 'env@x.co' }, null)).toEqual({
      apiKey: null,
      apiKeySource: null,
      from: 'env@x.co',
      fromSource: 'env',
    });
  });
});

describe('Resend config, connection test and test sends (stored config, fake Resend)', () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('resend', {
      RESEND_BASE_URL: fake.url,
      RESEND_API_KEY: '',
      RESEND_FROM: '',
      UNSUBSCRIBE_SECRET: 'resend-test',
      PUBLIC_URL: 'https://carts.example.com',
      UNSUBSCRIBE_MAILTO: 'unsubscribe@carts.example.com',
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  const template = async () =>
    (
      await email.api('POST', '/api/resend/templates', {
        body: {
          name: 'Reminder',
          subject: 'Hi {{contactEmail}}',
          from_name: 'Cart Team',
          html_content: '<p>Hi {{contactEmail}}, <a href="{{recoveryUrl}}">finish</a></p>',
        },
      })
    ).body as { id: number };

  it('not configured: says so, sends nothing (400), connection test fails without calling Resend', async () => {
    expect((await email.api('GET', '/api/resend/config')).body).toEqual({
      configured: false,
      apiKeyConfigured: false,
      apiKeySource: null,
      from: null,
      fromSource: null,
      stored: { apiKey: null, from: null },
      webhookSecretConfigured: false,
      liveSending: false,
      message: NOT_CONFIGURED,
      oneClickWarning: null,
    });
    const t = await template();
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: { testEmail: 'me@example.com' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, message: NOT_CONFIGURED, error: NOT_CONFIGURED });
    expect(await email.api('POST', '/api/resend/test-connection')).toMatchObject({
      status: 200,
      body: { success: false, message: NOT_CONFIGURED },
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('stored config (admin only) makes it configured; the key is never returned', async () => {
    expect(
      (
        await email.api('POST', '/api/resend/config', {
          body: { apiKey: 're_stored_key', from: 'Shop <shop@example.com>' },
          user: testUser,
        })
      ).status,
    ).toBe(403);
    const r = await email.api('POST', '/api/resend/config', {
      body: { apiKey: 're_stored_key', from: 'Shop <shop@example.com>' },
    });
    expect(r.status).toBe(200);
    // Write-only: where each value comes from, when it was set and its last four characters; never the value.
    expect(r.body).toMatchObject({
      configured: true,
      apiKeyConfigured: true,
      apiKeySource: 'stored',
      from: null,
      fromSource: 'stored',
      stored: { apiKey: { set_at: expect.any(String), last4: '_key' }, from: { set_at: expect.any(String), last4: 'com>' } },
      liveSending: false,
    });
    const shown = JSON.stringify((await email.api('GET', '/api/resend/config', { user: testUser })).body);
    expect(shown).not.toContain('re_stored_key');
    expect(shown).not.toContain('shop@example.com');
  });

  it('connection test lists domains through the SDK', async () => {
    const r = await email.api('POST', '/api/resend/test-connection', { user: testUser });
    expect(r.body).toEqual({ success: true, message: 'Connected to Resend. Domains: example.com (verified)' });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/domains',
      headers: { authorization: 'Bearer re_stored_key' },
    });
  });

  it('a test send goes through the SDK with rendered variables, from name, List-Unsubscribe headers; answers the message id', async () => {
    const t = await template();
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, {
      body: { testEmail: 'Me@Example.com' },
      user: testUser,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      success: true,
      message: 'Test email sent to Me@Example.com',
      messageId: expect.stringMatching(/^fake-/),
    });
    const sent = fake.emails.find((e) => e.id === r.body.messageId)!;
    expect(sent).toMatchObject({
      from: '"Cart Team" <shop@example.com>',
      to: ['Me@Example.com'],
      subject: 'Hi Me@Example.com',
    });
    expect(sent.html).toBe('<p>Hi Me@Example.com, <a href="https://carts.example.com">finish</a></p>');
    expect(sent.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const m =
      /^<(https:\/\/carts\.example\.com\/api\/unsubscribe\/one-click\?token=([^>]+))>, <mailto:unsubscribe@carts\.example\.com\?subject=unsubscribe>$/.exec(
        sent.headers['List-Unsubscribe']!,
      );
    expect(m).not.toBeNull();
    expect(verifyUnsubscribeToken(decodeURIComponent(m![2]!), 'resend-test')).toBe('me@example.com');
  });

  it('a test send to an unsubscribed address goes, with a warning', async () => {
    const t = await template();
    await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'gone@example.com' } });
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, {
      body: { testEmail: 'GONE@example.com' },
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(
      'Test email sent to GONE@example.com. Warning: this address is on the unsubscribe list, so reminder and campaign emails are never sent to it.',
    );
    expect(fake.emailsTo('GONE@example.com')).toHaveLength(1);
  });

  it('provider errors answer 502 with the provider message; bad input 400; unknown template 404', async () => {
    const t = await template();
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, {
      body: { testEmail: 'reject@example.com' },
    });
    expect(r.status).toBe(502);
    expect(r.body).toEqual({
      success: false,
      message: 'Invalid `to` field: reject@example.com',
      error: 'Invalid `to` field: reject@example.com',
    });
    expect((await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: {} })).body).toEqual({
      error: 'Test email address is required',
    });
    expect(
      (await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: { testEmail: 'nope' } })).body,
    ).toEqual({ error: 'Please enter a valid email address' });
    expect(
      (await email.api('POST', '/api/resend/templates/99999/test', { body: { testEmail: 'a@b.co' } })).status,
    ).toBe(404);
  });

  it('a refused key: connection test fails with the provider message, test send 502', async () => {
    await email.api('POST', '/api/resend/config', { body: { apiKey: 're_bad' } });
    expect((await email.api('POST', '/api/resend/test-connection')).body).toEqual({
      success: false,
      message: 'Resend connection failed: API key is invalid',
    });
    const t = await template();
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: { testEmail: 'a@example.com' } });
    expect(r).toMatchObject({ status: 502, body: { success: false, message: 'API key is invalid' } });
    await email.api('POST', '/api/resend/config', { body: { apiKey: 're_restricted' } });
    expect((await email.api('POST', '/api/resend/test-connection')).body).toEqual({
      success: true,
      message: 'Connected to Resend (the API key has sending access only)',
    });
    // The webhook signing secret is set the same way, checked for Resend's format, and never shown.
    const badSecret = await email.api('POST', '/api/resend/config', { body: { webhookSecret: 'not-a-secret' } });
    expect([badSecret.status, badSecret.body]).toEqual([400, { error: 'The webhook secret must be the whsec_... value Resend shows for the endpoint' }]);
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect((await email.api('POST', '/api/resend/config', { body: { webhookSecret: secret } })).body).toMatchObject({
      webhookSecretConfigured: true,
    });
    expect(JSON.stringify((await email.api('GET', '/api/resend/config')).body)).not.toContain(secret);
    await email.api('POST', '/api/resend/config', { body: { apiKey: null } });
    expect((await email.api('GET', '/api/resend/config')).body).toMatchObject({
      configured: false,
      apiKeySource: null,
      fromSource: 'stored',
    });
  });
});

describe('Resend from the environment', () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('resend_env', {
      RESEND_BASE_URL: fake.url,
      RESEND_API_KEY: 're_env_key',
      RESEND_FROM: 'env@example.com',
      EMAIL_LIVE_SENDING: 'true',
      PUBLIC_URL: 'http://shop.example.com',
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  it('environment values win over stored ones', async () => {
    await email.api('POST', '/api/resend/config', { body: { apiKey: 're_stored', from: 'stored@example.com' } });
    expect((await email.api('GET', '/api/resend/config')).body).toEqual({
      configured: true,
      apiKeyConfigured: true,
      apiKeySource: 'env',
      from: 'env@example.com',
      fromSource: 'env',
      // Stored too, but the environment's are in force (the page says so).
      stored: { apiKey: { set_at: expect.any(String), last4: 'ored' }, from: { set_at: expect.any(String), last4: '.com' } },
      webhookSecretConfigured: false,
      liveSending: true,
      message: 'Resend is configured; live sending is on: campaign emails are sent through Resend',
      oneClickWarning: oneClickWarning(true, 'http://shop.example.com'),
    });
    const t = (await email.api('POST', '/api/resend/templates', { body: { name: 'n', html_content: '<p>x</p>' } }))
      .body;
    const r = await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: { testEmail: 'a@example.com' } });
    expect(r.status).toBe(200);
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer re_env_key');
    expect(fake.emails.at(-1)?.from).toBe('"Cart Reminders" <env@example.com>');
  });
});

describe('stored Resend credentials are sealed and never leave the service', () => {
  const KEY = 're_SealedSecretKey_9f3b2c7d';
  const FROM = 'Sealed Shop <sealed-sender-7731@shop.example>';
  let fake: FakeResend;
  let email: EmailUnderTest;
  let audit: AuditCollector;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('resend_sealed', { RESEND_BASE_URL: fake.url, RESEND_API_KEY: '', RESEND_FROM: '' });
    audit = await collectAuditRecords(email.prefix);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await audit?.stop();
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  it('stores them sealed, uses them for Test Connection and Send Test, and shows only the date and last four', async () => {
    const saved = await email.api('POST', '/api/resend/config', { body: { apiKey: KEY, from: FROM } });
    expect(saved.status).toBe(200);
    const answers = [saved, await email.api('GET', '/api/resend/config'), await email.api('GET', '/api/resend/status')];
    const connection = await email.api('POST', '/api/resend/test-connection');
    expect(connection.body).toMatchObject({ success: true });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    const t = (await email.api('POST', '/api/resend/templates', { body: { name: 'n', html_content: '<p>x</p>' } })).body as { id: number };
    const sent = await email.api('POST', `/api/resend/templates/${t.id}/test`, { body: { testEmail: 'me@example.com' } });
    expect(sent.status).toBe(200);
    expect(fake.emails.at(-1)?.from).toContain('sealed-sender-7731@shop.example');
    answers.push(connection, sent);
    expect(saved.body).toMatchObject({ apiKeySource: 'stored', fromSource: 'stored', stored: { apiKey: { last4: KEY.slice(-4) }, from: { last4: FROM.slice(-4) } } });
    // In the database: sealed, neither value in clear.
    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const doc = JSON.stringify(await client.db(email.db).collection('resend_config').findOne({ _id: 'default' as never }));
      expect(doc).toMatch(/"api_key":"v1:/);
      expect(doc).not.toContain('SealedSecretKey');
      expect(doc).not.toContain('sealed-sender-7731');
    } finally {
      await client.close();
    }
    const record = await waitFor(async () => audit.seen.find((a) => a.route === 'POST /api/resend/config'), { what: 'the audit record' });
    for (const text of [...answers.map((a) => JSON.stringify(a.body)), JSON.stringify(audit.seen), email.svc.output()]) {
      expect(text).not.toContain('SealedSecretKey');
      expect(text).not.toContain('sealed-sender-7731');
    }
    expect(record.change).toBeDefined();
  });
});
