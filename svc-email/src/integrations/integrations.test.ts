import { testUser } from '@act/service-kit/testing';
import { MongoClient } from 'mongodb';
import { contactCreated, dropDb, MONGODB_URI, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('integrations');
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const api = (method: string, path: string, body?: unknown) => email.api(method, path, { body, user: testUser });
const MSG = 'Reminder delay must be between 1 and 720 minutes';

describe('webhook integrations', () => {
  it('starts with the default integration (funnel_id default, the global delay)', async () => {
    const r = await api('GET', '/api/webhook-integrations');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: expect.any(Number), name: 'Default Integration', funnel_id: 'default', active: true, reminder_delay: 30, resend_template_id: null, campaign_id: null, email_template: null, checkout_fallback_url: null, created_at: expect.any(String), webhook_url: expect.stringMatching(/^http:\/\/127.0.0.1:8080\/api\/webhook\/i\/[A-Za-z0-9_-]{24}$/), signing: { has_secret: false, source: null, has_api_key: false, send_without_consent: false } },
    ]);
  });

  it('creates with defaults, refuses invalid input with the spec\'s messages and duplicates with 409', async () => {
    const r = await api('POST', '/api/webhook-integrations', { name: ' Summer ', funnel_id: 'summer', resend_template_id: 3, campaign_id: null });
    expect([r.status, r.status === 201 ? null : r.text]).toEqual([201, null]);
    expect(r.body).toMatchObject({ name: 'Summer', funnel_id: 'summer', active: true, reminder_delay: 30, resend_template_id: 3, campaign_id: null });
    const cases: [unknown, number, string][] = [
      [{ funnel_id: 'x' }, 400, 'Name is required'],
      [{ name: '   ', funnel_id: 'x' }, 400, 'Name is required'],
      [{ name: 'X' }, 400, 'Funnel ID is required'],
      [{ name: 'X', funnel_id: { $ne: null } }, 400, 'Funnel ID is required'],
      [{ name: 'X', funnel_id: 'x', reminder_delay: 0 }, 400, MSG],
      [{ name: 'X', funnel_id: 'x', reminder_delay: 721 }, 400, MSG],
      [{ name: 'X', funnel_id: 'x', reminder_delay: '30' }, 400, MSG],
      [{ name: 'X', funnel_id: 'x', active: 'yes' }, 400, 'active must be true or false'],
      [{ name: 'X', funnel_id: 'x', resend_template_id: -1 }, 400, 'resend_template_id must be a positive integer'],
      [{ name: 'X', funnel_id: 'x', checkout_fallback_url: 'javascript:alert(1)' }, 400, 'The fallback checkout link must be an http(s) URL'],
      [{ name: 'X', funnel_id: 'x', checkout_fallback_url: { $ne: null } }, 400, 'The fallback checkout link must be a string'],
      [{ name: 'X', funnel_id: 'summer' }, 409, 'An integration with this funnel ID already exists'],
      [{ name: 'X', funnel_id: 'default' }, 409, 'An integration with this funnel ID already exists'],
    ];
    for (const [body, status, error] of cases) {
      const res = await api('POST', '/api/webhook-integrations', body);
      expect([body, res.status, res.body]).toEqual([body, status, { error }]);
    }
    const bad = await email.api('POST', '/api/webhook-integrations', { raw: '{oops', user: testUser });
    expect(bad).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
  });

  it('a counter behind the stored ids (a restored backup, a stale answer) gives the next free id, not a 409', async () => {
    // A second instance on the same database: its own process has handed out no id yet, so nothing in it skips a
    // counter answer that is behind.
    const other = await startEmail('integrations-b', { MONGODB_DB: email.db, NATS_PREFIX: email.prefix });
    try {
      await api('POST', '/api/webhook-integrations', { name: 'Taken', funnel_id: 'counter-taken' });
      const before = (await api('GET', '/api/webhook-integrations')).body.map((i: { id: number }) => i.id);
      const client = await MongoClient.connect(MONGODB_URI);
      try {
        await client.db(email.db).collection<{ _id: string; seq: number }>('counters').updateOne({ _id: 'webhook_integrations' }, { $set: { seq: 0 } });
      } finally {
        await client.close();
      }
      const r = await other.api('POST', '/api/webhook-integrations', { body: { name: 'After restore', funnel_id: 'after-restore' }, user: testUser });
      expect([r.status, r.body.error]).toEqual([201, undefined]);
      expect(before).not.toContain(r.body.id);
    } finally {
      await other.svc.stop();
    }
  }, HOOK_TIMEOUT_MS);

  it('updates with the full body or only active; keeps funnel ids unique', async () => {
    const created = (await api('POST', '/api/webhook-integrations', { name: 'Winter', funnel_id: 'winter', reminder_delay: 10 })).body;
    const full = await api('PATCH', `/api/webhook-integrations/${created.id}`, { name: 'Winter 2', funnel_id: 'winter-2', active: true, reminder_delay: 15, resend_template_id: null, campaign_id: 7 });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ id: created.id, name: 'Winter 2', funnel_id: 'winter-2', reminder_delay: 15, campaign_id: 7 });
    const paused = await api('PATCH', `/api/webhook-integrations/${created.id}`, { active: false });
    expect(paused.body).toMatchObject({ active: false, name: 'Winter 2' });
    expect(await api('PATCH', `/api/webhook-integrations/${created.id}`, { funnel_id: 'summer' })).toMatchObject({ status: 409 });
    expect(await api('PATCH', `/api/webhook-integrations/${created.id}`, {})).toMatchObject({ status: 400, body: { error: 'No fields to update' } });
    expect(await api('PATCH', `/api/webhook-integrations/${created.id}`, { reminder_delay: 900 })).toMatchObject({ status: 400, body: { error: MSG } });
    expect(await api('PATCH', '/api/webhook-integrations/99999', { active: true })).toMatchObject({ status: 404, body: { error: 'Integration not found' } });
    expect(await api('PATCH', '/api/webhook-integrations/abc', { active: true })).toMatchObject({ status: 400, body: { error: 'Invalid id' } });
  });

  it('protects the default integration: no funnel change, no delete, no clear', async () => {
    const def = ((await api('GET', '/api/webhook-integrations')).body as { id: number; funnel_id: string }[]).find((i) => i.funnel_id === 'default')!;
    expect(await api('PATCH', `/api/webhook-integrations/${def.id}`, { funnel_id: 'other' })).toMatchObject({ status: 400, body: { error: "The default integration's funnel ID cannot be changed" } });
    expect(await api('DELETE', `/api/webhook-integrations/${def.id}`)).toMatchObject({ status: 400, body: { error: 'The default integration cannot be deleted' } });
    expect(await api('POST', `/api/webhook-integrations/${def.id}/clear-contacts`)).toMatchObject({ status: 400 });
    // Renaming it, or sending its unchanged funnel id with the full form, is fine.
    expect(await api('PATCH', `/api/webhook-integrations/${def.id}`, { name: 'Fallback', funnel_id: 'default', reminder_delay: 45 })).toMatchObject({ status: 200 });
    // Its delay is the global one.
    expect((await api('GET', '/api/settings/reminder-delay')).body).toEqual({ reminderDelay: 45 });
  });

  it('refuses to delete while contacts exist (409 mentioning contacts), clears them, then deletes', async () => {
    const integ = (await api('POST', '/api/webhook-integrations', { name: 'Spring', funnel_id: 'spring' })).body;
    for (const i of [1, 2, 3]) await email.api('POST', '/api/webhook', { body: contactCreated(`s-${i}`, `s${i}@example.com`, 'spring'), user: null });
    const refused = await api('DELETE', `/api/webhook-integrations/${integ.id}`);
    expect(refused).toMatchObject({ status: 409, body: { error: 'Cannot delete integration with associated contacts. Clear the contacts first.' } });
    const cleared = await api('POST', `/api/webhook-integrations/${integ.id}/clear-contacts`);
    expect(cleared).toMatchObject({ status: 200, body: { message: 'Cleared 3 contacts' } });
    expect(await api('DELETE', `/api/webhook-integrations/${integ.id}`)).toMatchObject({ status: 200, body: { success: true } });
    expect(await api('DELETE', `/api/webhook-integrations/${integ.id}`)).toMatchObject({ status: 404 });
  });

  it('a new integration takes effect on the webhook path at once', async () => {
    const integ = (await api('POST', '/api/webhook-integrations', { name: 'Fresh', funnel_id: 'fresh', reminder_delay: 5 })).body;
    const r = await email.api('POST', '/api/webhook', { body: contactCreated('f-1', 'f1@example.com', 'fresh'), user: null });
    expect(r.body.integration_id).toBe(integ.id);
  });

  it('needs a signed-in user', async () => {
    expect(await email.api('GET', '/api/webhook-integrations', { user: null })).toMatchObject({ status: 401, body: { error: 'Authentication required' } });
  });
});

describe('settings/reminder-delay', () => {
  it('validates an integer 1 to 720 and mirrors it on the default integration', async () => {
    for (const bad of [0, 721, 1.5, '10', null, { $gt: 1 }]) {
      expect(await api('POST', '/api/settings/reminder-delay', { reminderDelay: bad })).toMatchObject({ status: 400, body: { error: MSG } });
    }
    expect(await api('POST', '/api/settings/reminder-delay', {})).toMatchObject({ status: 400, body: { error: MSG } });
    const ok = await api('POST', '/api/settings/reminder-delay', { reminderDelay: 720 });
    expect(ok).toMatchObject({ status: 200, body: { success: true, reminderDelay: 720 } });
    expect((await api('GET', '/api/settings/reminder-delay')).body).toEqual({ reminderDelay: 720 });
    const def = ((await api('GET', '/api/webhook-integrations')).body as { funnel_id: string; reminder_delay: number }[]).find((i) => i.funnel_id === 'default')!;
    expect(def.reminder_delay).toBe(720);
  });
});

describe('GET /api/resend/templates', () => {
  it('lists templates (none yet)', async () => {
    expect(await api('GET', '/api/resend/templates')).toMatchObject({ status: 200, body: [] });
  });
});
