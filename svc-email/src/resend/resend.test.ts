import { testUser } from '@act/service-kit/testing';
import { resolveCredentials } from '../providers/resend';
import { startFakeResend, type FakeResend } from '@act/testing';
import { dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';
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
    expect(r.body).toMatchObject({
      configured: true,
      apiKeyConfigured: true,
      apiKeySource: 'stored',
      from: 'Shop <shop@example.com>',
      fromSource: 'stored',
      liveSending: false,
    });
    expect(JSON.stringify((await email.api('GET', '/api/resend/config', { user: testUser })).body)).not.toContain(
      're_stored_key',
    );
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
