/**
 * Integrations, campaigns and templates through HTTP against the real service: validation messages of spec
 * section 5, shapes of section 3, sign-in required, campaign delete cascade.
 */
import { call, type ServiceProcess } from '@act/service-kit/testing';
import { dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;

beforeAll(async () => {
  t = smsTestEnv('api', null);
  svc = await startSms(t);
});
afterAll(async () => {
  await svc?.stop();
  await dropStream(t.natsPrefix);
  await dropDb(t.db);
});

const post = (path: string, body: unknown) => call(svc.url, 'POST', path, { body });
const patch = (path: string, body: unknown) => call(svc.url, 'PATCH', path, { body });

describe('sign-in', () => {
  it.each([
    ['GET', '/api/sms-webhook-integrations'],
    ['POST', '/api/sms-webhook-integrations'],
    ['PATCH', '/api/sms-webhook-integrations/1'],
    ['DELETE', '/api/sms-webhook-integrations/1'],
    ['GET', '/api/sms-campaigns'],
    ['POST', '/api/sms-campaigns'],
    ['DELETE', '/api/sms-campaigns/1'],
    ['GET', '/api/sms-templates'],
    ['POST', '/api/sms-templates'],
    ['POST', '/api/sms-templates/1/test'],
    ['GET', '/api/sms-contacts'],
    ['POST', '/api/sms-contacts/mark-purchased'],
    ['POST', '/api/sms-contacts/clear'],
    ['GET', '/api/sms-logs'],
    ['GET', '/api/sms-webhook-events'],
    ['GET', '/api/sms-stats-simple'],
    ['GET', '/api/twilio/config'],
    ['POST', '/api/twilio/config'],
    ['GET', '/api/twilio/messaging-services'],
    ['POST', '/api/twilio/test-connection'],
    ['POST', '/api/twilio/test-sms'],
  ])('%s %s needs a signed-in user', async (method, path) => {
    const r = await call(svc.url, method, path, { user: null, body: method === 'GET' ? undefined : {} });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'Authentication required' });
  });
  it('refuses calls that did not come through the gateway', async () => {
    const r = await fetch(`${svc.url}/api/sms-logs`);
    expect(r.status).toBe(401);
  });
});

describe('integrations', () => {
  it.each([
    [{ funnel_id: 'f' }, 'Name is required'],
    [{ name: '  ', funnel_id: 'f' }, 'Name is required'],
    [{ name: 'A' }, 'Funnel ID is required'],
    [{ name: 'A', funnel_id: 'f', reminder_delay: 0 }, 'Reminder delay must be at least 1 minute'],
    [{ name: 'A', funnel_id: 'f', reminder_delay: -5 }, 'Reminder delay must be at least 1 minute'],
    [{ name: 'A', funnel_id: 'f', sms_campaign_id: 9999 }, 'Campaign not found'],
  ])('refuses %j with "%s"', async (body, error) => {
    const r = await post('/api/sms-webhook-integrations', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });

  it('creates with the defaults of section 5 and lists a plain array', async () => {
    const r = await post('/api/sms-webhook-integrations', { name: 'Summer', funnel_id: 'summer-sale' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: 'Summer',
      funnel_id: 'summer-sale',
      sms_campaign_id: null,
      reminder_delay: 30,
      active: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      campaign_name: null,
      checkout_fallback_url: null,
      webhook_url: expect.stringMatching(/^http:\/\/sms\.test\.local\/api\/sms\/webhook\/i\/[A-Za-z0-9_-]{24}$/),
      signing: { has_secret: false, source: null, has_api_key: false, send_without_consent: false },
    });
    const list = await call(svc.url, 'GET', '/api/sms-webhook-integrations');
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.find((i: { id: number }) => i.id === r.body.id)).toEqual(r.body);
  });

  it('takes 30 for a non-numeric reminder delay, like the form', async () => {
    const r = await post('/api/sms-webhook-integrations', {
      name: 'NaN',
      funnel_id: 'nan-funnel',
      reminder_delay: 'abc',
      active: false,
    });
    expect([r.status, r.status === 201 ? null : r.text]).toEqual([201, null]);
    expect(r.body.reminder_delay).toBe(30);
  });

  it('refuses a second active integration for the same funnel', async () => {
    await post('/api/sms-webhook-integrations', { name: 'One', funnel_id: 'dup-funnel' });
    const r = await post('/api/sms-webhook-integrations', { name: 'Two', funnel_id: 'dup-funnel' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/already exists for funnel dup-funnel/);
    expect(
      (await post('/api/sms-webhook-integrations', { name: 'Two', funnel_id: 'dup-funnel', active: false })).status,
    ).toBe(201);
  });

  it('updates, links a campaign, clears it with null, and deletes', async () => {
    const c = await post('/api/sms-campaigns', { name: 'Linked', integration_id: null, active: true });
    const i = await post('/api/sms-webhook-integrations', {
      name: 'Edit me',
      funnel_id: 'edit-funnel',
      reminder_delay: 10,
    });
    const u = await patch(`/api/sms-webhook-integrations/${i.body.id}`, {
      name: 'Edited',
      funnel_id: 'edit-funnel',
      sms_campaign_id: c.body.id,
      reminder_delay: 45,
      active: true,
    });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({
      name: 'Edited',
      sms_campaign_id: c.body.id,
      campaign_name: 'Linked',
      reminder_delay: 45,
    });
    const cleared = await patch(`/api/sms-webhook-integrations/${i.body.id}`, { sms_campaign_id: null });
    expect(cleared.body).toMatchObject({ sms_campaign_id: null, campaign_name: null, name: 'Edited' });
    // A campaign linked from its side (integration_id) is the one that sends: the card names it.
    await post('/api/sms-campaigns', { name: 'Sends here', integration_id: i.body.id, active: true });
    const listed = (await call(svc.url, 'GET', '/api/sms-webhook-integrations')).body as { id: number; campaign_name: string | null }[];
    expect(listed.find((x) => x.id === i.body.id)?.campaign_name).toBe('Sends here');
    expect((await patch(`/api/sms-webhook-integrations/${i.body.id}`, { reminder_delay: 0 })).body).toEqual({
      error: 'Reminder delay must be at least 1 minute',
    });
    const d = await call(svc.url, 'DELETE', `/api/sms-webhook-integrations/${i.body.id}`);
    expect(d.body).toEqual({ success: true, message: 'SMS webhook integration deleted successfully' });
    expect((await call(svc.url, 'DELETE', `/api/sms-webhook-integrations/${i.body.id}`)).status).toBe(404);
    expect((await call(svc.url, 'PATCH', '/api/sms-webhook-integrations/abc', { body: {} })).status).toBe(400);
  });

  it('answers 400 to malformed JSON', async () => {
    const r = await call(svc.url, 'POST', '/api/sms-webhook-integrations', { raw: '{"name":' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Invalid JSON body' });
  });
});

describe('campaigns and templates', () => {
  it('validates campaigns', async () => {
    expect((await post('/api/sms-campaigns', { name: '' })).body).toEqual({ error: 'Campaign name is required' });
    expect((await post('/api/sms-campaigns', { name: 'X', integration_id: 424242 })).body).toEqual({
      error: 'Integration not found',
    });
  });

  it.each([
    [{ name: '', message: 'Hi' }, 'Template name is required'],
    [{ name: 'T', message: '' }, 'Message is required'],
    [{ name: 'T', message: 'x'.repeat(161) }, 'SMS messages must be 160 characters or less'],
    [{ name: 'T', message: 'Hi', sequence_order: 0 }, 'Sequence order must be at least 1'],
    [{ name: 'T', message: 'Hi', delay_minutes: -1 }, 'Delay must be 0 or greater'],
    [{ name: 'T', message: 'Hi', delay_minutes: 525_601 }, 'Delay must be at most 525600 minutes (one year)'],
    [{ name: 'T', message: 'Hi', sequence_order: 1001 }, 'Sequence order must be at most 1000'],
  ])('refuses template %j with "%s"', async (body, error) => {
    const c = await post('/api/sms-campaigns', { name: 'For templates', integration_id: null, active: true });
    const r = await post('/api/sms-templates', { campaign_id: c.body.id, ...body });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error });
  });

  it('accepts exactly 160 characters and defaults order to highest + 1 with delay 0', async () => {
    const i = await post('/api/sms-webhook-integrations', { name: 'Camp int', funnel_id: 'camp-funnel' });
    const c = await post('/api/sms-campaigns', { name: 'Seq', integration_id: i.body.id, active: true });
    expect(c.status).toBe(201);
    expect(c.body).toEqual({
      id: expect.any(Number),
      name: 'Seq',
      integration_id: i.body.id,
      active: true,
      created_at: expect.any(String),
      integration_name: 'Camp int',
      template_count: 0,
      // The flow rules a campaign carries, at their defaults.
      on_cart_change: 'continue',
      priority: 0,
    });
    const a = await post('/api/sms-templates', {
      campaign_id: c.body.id,
      name: 'A',
      message: 'x'.repeat(160),
      sequence_order: 4,
      delay_minutes: 5,
      active: true,
    });
    expect(a.status).toBe(201);
    const b = await post('/api/sms-templates', { campaign_id: c.body.id, name: 'B', message: 'Hi {first_name}' });
    expect(b.body).toEqual({
      id: expect.any(Number),
      campaign_id: c.body.id,
      name: 'B',
      message: 'Hi {first_name}',
      sequence_order: 5,
      delay_minutes: 0,
      active: true,
      created_at: expect.any(String),
    });
    const u = await patch(`/api/sms-templates/${b.body.id}`, {
      name: 'B2',
      message: 'Bye',
      sequence_order: 1,
      delay_minutes: 3,
      active: false,
      campaign_id: c.body.id,
    });
    expect(u.body).toMatchObject({ name: 'B2', sequence_order: 1, delay_minutes: 3, active: false });
    expect((await patch(`/api/sms-templates/${b.body.id}`, { message: 'y'.repeat(161) })).body).toEqual({
      error: 'SMS messages must be 160 characters or less',
    });

    const list = await call(svc.url, 'GET', '/api/sms-campaigns');
    expect(list.body.find((x: { id: number }) => x.id === c.body.id).template_count).toBe(2);

    const d = await call(svc.url, 'DELETE', `/api/sms-campaigns/${c.body.id}`);
    expect(d.body).toEqual({
      success: true,
      message: 'Campaign and associated templates deleted successfully',
      templates_deleted: 2,
    });
    const templates = await call(svc.url, 'GET', '/api/sms-templates');
    expect(templates.body.filter((x: { campaign_id: number }) => x.campaign_id === c.body.id)).toEqual([]);
  });

  it('needs an existing campaign for a template', async () => {
    expect((await post('/api/sms-templates', { name: 'T', message: 'Hi' })).body).toEqual({
      error: 'Campaign is required',
    });
    expect((await post('/api/sms-templates', { campaign_id: 999999, name: 'T', message: 'Hi' })).body).toEqual({
      error: 'Campaign not found',
    });
  });
});

describe('provider settings without credentials', () => {
  it('reads the defaults of section 9 (but delivery callbacks on) and says not configured', async () => {
    const r = await call(svc.url, 'GET', '/api/twilio/config');
    expect(r.body).toEqual({
      messaging_service_sid: '',
      phone_number: '',
      webhook_url: '',
      delivery_webhooks_enabled: true,
      blackout_start_hour: 22,
      blackout_end_hour: 8,
      blackout_timezone: 'America/New_York',
      blackout_enabled: true,
      // The cross-channel frequency cap is off until an admin sets it.
      frequency_cap_hours: null,
      configured: false,
    });
  });

  it('validates and saves the config, never taking credentials', async () => {
    expect((await post('/api/twilio/config', { webhook_url: 'not a url' })).body).toEqual({
      error: 'Must be a valid URL',
    });
    expect((await post('/api/twilio/config', { blackout_start_hour: 24 })).status).toBe(400);
    expect((await post('/api/twilio/config', { blackout_end_hour: 7.5 })).status).toBe(400);
    expect((await post('/api/twilio/config', { blackout_timezone: 'Europe/Paris' })).status).toBe(400);
    // Twilio's formats, refused with a message that says what is expected.
    expect((await post('/api/twilio/config', { phone_number: 'abc' })).body).toEqual({
      error: 'The phone number must be in E.164 format, like +14155550123',
    });
    expect((await post('/api/twilio/config', { phone_number: '415 555 0123' })).status).toBe(400);
    expect((await post('/api/twilio/config', { messaging_service_sid: 'MG123' })).body).toEqual({
      error: 'The messaging service SID must be MG followed by 32 hexadecimal characters',
    });
    // A plain user may read the settings but not change them (as with Resend).
    const asUser = await call(svc.url, 'POST', '/api/twilio/config', {
      body: { phone_number: '+15005550009' },
      user: { id: 2, username: 'operator', role: 'user' },
    });
    expect([asUser.status, asUser.body]).toEqual([403, { error: 'Admin access required' }]);
    expect((await call(svc.url, 'GET', '/api/twilio/config', { user: { id: 2, username: 'operator', role: 'user' } })).status).toBe(200);
    const r = await post('/api/twilio/config', {
      messaging_service_sid: 'MG0123456789abcdef0123456789abcdef',
      phone_number: '+15005550006',
      webhook_url: '',
      delivery_webhooks_enabled: true,
      blackout_start_hour: 21,
      blackout_end_hour: 9,
      blackout_timezone: 'America/Chicago',
      blackout_enabled: false,
      account_sid: 'ACevil',
      auth_token: 'stolen',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      messaging_service_sid: 'MG0123456789abcdef0123456789abcdef',
      phone_number: '+15005550006',
      webhook_url: '',
      delivery_webhooks_enabled: true,
      blackout_start_hour: 21,
      blackout_end_hour: 9,
      blackout_timezone: 'America/Chicago',
      blackout_enabled: false,
      frequency_cap_hours: null,
      configured: false,
      message: 'Twilio configuration saved successfully',
    });
    expect((await call(svc.url, 'GET', '/api/twilio/config')).text).not.toMatch(/ACevil|stolen/);
  });

  it('sends nothing and says why', async () => {
    const msg = 'Twilio is not configured: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN';
    expect(await post('/api/twilio/test-connection', {})).toMatchObject({ status: 400, body: { error: msg } });
    expect(await post('/api/twilio/test-sms', { test_phone: '+15551234567', test_message: 'Hi' })).toMatchObject({
      status: 400,
      body: { error: msg },
    });
    expect(await call(svc.url, 'GET', '/api/twilio/messaging-services')).toMatchObject({
      status: 200,
      body: { services: [], message: msg },
    });
  });

  it.each([
    [{ test_message: 'Hi' }, 'Phone number is required'],
    [{ test_phone: '555-123-4567', test_message: 'Hi' }, 'Invalid phone number format'],
    [{ test_phone: '+1555123', test_message: 'Hi' }, 'Invalid phone number format'],
    [{ test_phone: '+15551234567' }, 'Message is required'],
  ])('validates a test SMS %j', async (body, error) => {
    expect((await post('/api/twilio/test-sms', body)).body).toEqual({ error });
  });

  it('validates a template test phone', async () => {
    const c = await post('/api/sms-campaigns', { name: 'T', integration_id: null, active: true });
    const tpl = await post('/api/sms-templates', { campaign_id: c.body.id, name: 'T', message: 'Hi' });
    expect((await post(`/api/sms-templates/${tpl.body.id}/test`, {})).body).toEqual({
      error: 'Phone number is required',
    });
    expect((await post(`/api/sms-templates/${tpl.body.id}/test`, { testPhone: 'abc' })).body).toEqual({
      error: 'Invalid phone number format',
    });
  });
});

describe('stats query', () => {
  it('refuses an unknown date range and answers the full shape', async () => {
    expect((await call(svc.url, 'GET', '/api/sms-stats-simple?date_range=forever')).status).toBe(400);
    const r = await call(svc.url, 'GET', '/api/sms-stats-simple');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      stats: expect.any(Array),
      integrations: expect.any(Array),
      daily: [{ date: expect.any(String), sent: 0, delivered: 0 }],
      date_range: 'today',
    });
  });
});
