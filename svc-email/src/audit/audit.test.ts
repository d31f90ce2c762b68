// svc-email's part of the audit log: each staff change leaves an audit.recorded event on the bus (svc-auth
// gathers them), with who, from where and what, secrets left out; refused calls and public calls leave none.
import type { NatsConnection, Subscription } from 'nats';
import { testAdmin, testUser } from '@act/service-kit/testing';
import type { AuditRecord } from '@act/contracts/src/audit';
import { contactCreated, dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

let email: EmailUnderTest;
let nc: NatsConnection;
let sub: Subscription;
const seen: AuditRecord[] = [];

beforeAll(async () => {
  email = await startEmail('audit');
  nc = await natsConnect();
  // Core NATS sees what JetStream stores on the subject: enough to read the events this instance publishes.
  sub = nc.subscribe(`${email.prefix}audit.recorded`);
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(m.string()));
  })();
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const ADDRESS = '192.0.2.44';
const as = (user = testAdmin) => ({ user, headers: { 'x-forwarded-for': ADDRESS } });
const recorded = (match: (r: AuditRecord) => boolean, what: string) =>
  waitFor(async () => seen.find(match) ?? null, { timeoutMs: 10_000, what });

it('records provider settings with the key and secret left out', async () => {
  const key = 're_live_key_that_must_not_be_logged_123';
  const r = await email.api('POST', '/api/resend/config', { ...as(), body: { apiKey: key, from: 'Shop <shop@example.com>' } });
  expect(r.status).toBe(200);
  const rec = await recorded((x) => x.action === 'resend.config', 'resend config record');
  expect(rec).toMatchObject({
    service: 'svc-email',
    actor: { id: testAdmin.id, username: testAdmin.username, role: 'admin' },
    ip: ADDRESS,
    route: 'POST /api/resend/config',
    status: 200,
    target_kind: 'provider-settings',
    target_id: 'resend',
    // The stored from-address is write-only like the key: the record says it was set, not what it is.
    change: { before: { from: '[not set]', apiKey: '[not set]' }, after: { from: '[set]', apiKey: '[set]' } },
  });
  expect(JSON.stringify(seen)).not.toContain(key);
  expect(JSON.stringify(seen)).not.toContain('shop@example.com');
});

it('records an integration created and its secret set, mark-purchased and clear-data, by who did them', async () => {
  const created = await email.api('POST', '/api/webhook-integrations', { ...as(testUser), body: { name: 'Audited', funnel_id: 'audited' } });
  expect(created.status).toBe(201);
  await recorded((x) => x.action === 'webhook-integration.create' && x.target_id === String(created.body.id) && x.actor?.username === testUser.username, 'integration create');
  const secret = 'whsec_integration_secret_not_for_logs';
  expect((await email.api('PATCH', `/api/webhook-integrations/${created.body.id}`, { ...as(), body: { webhook_secret: secret } })).status).toBe(200);
  const patched = await recorded((x) => x.action === 'webhook-integration.update' && x.target_id === String(created.body.id), 'integration update');
  // The secret's before and after say only whether one was set; never the value.
  expect(patched.change).toEqual({ before: { webhook_secret: '[not set]' }, after: { webhook_secret: '[set]' } });
  const rotated = 'whsec_integration_secret_rotated_2';
  expect((await email.api('PATCH', `/api/webhook-integrations/${created.body.id}`, { ...as(), body: { webhook_secret: rotated } })).status).toBe(200);
  const rotation = await recorded((x) => x.action === 'webhook-integration.update' && x.change.after?.webhook_secret === '[changed]', 'secret rotated');
  expect(rotation.change).toEqual({ before: { webhook_secret: '[set]' }, after: { webhook_secret: '[changed]' } });
  expect(JSON.stringify(seen)).not.toContain(rotated);
  expect(JSON.stringify(seen)).not.toContain(secret);

  const other = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: 'Unsigned', funnel_id: 'audited-unsigned' } });
  expect(other.status).toBe(201);
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('AUD-1', 'audited@example.com', 'audited-unsigned'), user: null })).status).toBe(200);
  const marked = await email.api('POST', '/api/contacts/mark-purchased', { ...as(), body: { contact_id: 'AUD-1' } });
  expect(marked.status).toBe(200);
  const purchase = await recorded((x) => x.action === 'contact.mark-purchased', 'mark purchased');
  expect(purchase).toMatchObject({ target_kind: 'contact', target_id: 'AUD-1', change: { before: { purchased: false }, after: { purchased: true } } });
  expect((await email.api('POST', '/api/test/clear-data', as(testUser))).status).toBe(200);
  await recorded((x) => x.action === 'test.clear-data' && x.actor?.username === testUser.username, 'clear data');
});

it('records nothing for a refused change or a public call (positive control after them)', async () => {
  const before = seen.length;
  expect((await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: '' } })).status).toBe(400);
  expect((await email.api('POST', '/api/resend/config', { ...as(testUser), body: { apiKey: 'x' } })).status).toBe(403);
  expect((await email.api('POST', '/api/webhook', { body: contactCreated('AUD-2', 'public@example.com'), user: null })).status).toBe(200);
  const control = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: 'Control', funnel_id: 'audit-control' } });
  expect(control.status).toBe(201);
  await recorded((x) => x.target_id === String(control.body.id), 'control');
  expect(seen.slice(before).map((x) => x.action)).toEqual(['webhook-integration.create']);
});

/** Everything recorded from now on, once a positive control (an integration created) has arrived after it. */
async function recordedAfter(action: () => Promise<void>): Promise<AuditRecord[]> {
  const mark = seen.length;
  await action();
  const control = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: `Control ${mark}`, funnel_id: `audit-control-${mark}` } });
  expect(control.status).toBe(201);
  await recorded((x) => x.target_id === String(control.body.id), 'control');
  return seen.slice(mark).filter((x) => x.target_id !== String(control.body.id));
}

describe('before and after of what changed, per kind', () => {
  it('integration: renamed (only the changed fields), saved unchanged (no record), deleted (its state before)', async () => {
    const made = await email.api('POST', '/api/webhook-integrations', { ...as(), body: { name: 'Before name', funnel_id: 'audit-diff', reminder_delay: 30 } });
    expect(made.status).toBe(201);
    const id = String(made.body.id);
    expect((await email.api('PATCH', `/api/webhook-integrations/${id}`, { ...as(), body: { name: 'After name', reminder_delay: 30 } })).status).toBe(200);
    const renamed = await recorded((x) => x.action === 'webhook-integration.update' && x.target_id === id, 'rename');
    expect(renamed.change).toEqual({ before: { name: 'Before name' }, after: { name: 'After name' } });

    const unchanged = await recordedAfter(async () => {
      expect((await email.api('PATCH', `/api/webhook-integrations/${id}`, { ...as(), body: { name: 'After name', active: true } })).status).toBe(200);
    });
    expect(unchanged).toEqual([]);

    expect((await email.api('DELETE', `/api/webhook-integrations/${id}`, as())).status).toBe(200);
    const deleted = await recorded((x) => x.action === 'webhook-integration.delete' && x.target_id === id, 'delete');
    expect(deleted.change.after).toBeNull();
    expect(deleted.change.before).toMatchObject({ name: 'After name', funnel_id: 'audit-diff', reminder_delay: 30, active: true });
    expect(deleted.change.before).not.toHaveProperty('signing');
  });

  it('campaign and template: updates show before and after, deletions the state before, no-op updates nothing', async () => {
    const campaign = await email.api('POST', '/api/email/campaigns', { ...as(), body: { name: 'Audit campaign', description: 'first' } });
    expect(campaign.status).toBe(201);
    const cid = String(campaign.body.id);
    expect((await email.api('PUT', `/api/email/campaigns/${cid}`, { ...as(), body: { name: 'Audit campaign', description: 'second' } })).status).toBe(200);
    const cu = await recorded((x) => x.route === 'PUT /api/email/campaigns/:id' && x.target_id === cid, 'campaign update');
    expect(cu.change).toEqual({ before: { description: 'first' }, after: { description: 'second' } });

    const template = await email.api('POST', '/api/resend/templates', { ...as(), body: { name: 'Audit template', subject: 'Old subject', html_content: '<p>x</p>' } });
    expect(template.status).toBe(201);
    const tid = String(template.body.id);
    expect((await email.api('PATCH', `/api/resend/templates/${tid}`, { ...as(), body: { subject: 'New subject' } })).status).toBe(200);
    const tu = await recorded((x) => x.route === 'PATCH /api/resend/templates/:id' && x.target_id === tid, 'template update');
    expect(tu.change).toEqual({ before: { subject: 'Old subject' }, after: { subject: 'New subject' } });

    const noop = await recordedAfter(async () => {
      expect((await email.api('PUT', `/api/email/campaigns/${cid}`, { ...as(), body: { name: 'Audit campaign', description: 'second' } })).status).toBe(200);
      expect((await email.api('PATCH', `/api/resend/templates/${tid}`, { ...as(), body: { subject: 'New subject' } })).status).toBe(200);
    });
    expect(noop).toEqual([]);

    expect((await email.api('DELETE', `/api/resend/templates/${tid}`, as())).status).toBe(200);
    const td = await recorded((x) => x.route === 'DELETE /api/resend/templates/:id' && x.target_id === tid, 'template delete');
    expect(td.change).toMatchObject({ before: { name: 'Audit template', subject: 'New subject' }, after: null });
    expect((await email.api('DELETE', `/api/email/campaigns/${cid}`, as())).status).toBe(200);
    const cd = await recorded((x) => x.route === 'DELETE /api/email/campaigns/:id' && x.target_id === cid, 'campaign delete');
    expect(cd.change).toMatchObject({ before: { name: 'Audit campaign', description: 'second' }, after: null });
  });

  it('settings: the reminder delay and signed deliveries before and after; the same value again is no change', async () => {
    const current = (await email.api('GET', '/api/settings/reminder-delay', as())).body.reminderDelay as number;
    const next = current + 7;
    expect((await email.api('POST', '/api/settings/reminder-delay', { ...as(), body: { reminderDelay: next } })).status).toBe(200);
    const delay = await recorded((x) => x.route === 'POST /api/settings/reminder-delay', 'reminder delay');
    expect(delay).toMatchObject({ target_kind: 'setting', target_id: 'reminder-delay', change: { before: { reminderDelay: current }, after: { reminderDelay: next } } });
    expect((await email.api('PUT', '/api/webhook-signing', { ...as(), body: { require_signed: true } })).status).toBe(200);
    const signed = await recorded((x) => x.route === 'PUT /api/webhook-signing', 'signing');
    expect(signed.change).toEqual({ before: { require_signed: false }, after: { require_signed: true } });
    expect((await email.api('PUT', '/api/webhook-signing', { ...as(), body: { require_signed: false } })).status).toBe(200);
    await recorded((x) => x.route === 'PUT /api/webhook-signing' && x.change.after?.require_signed === false, 'signing back');

    const noop = await recordedAfter(async () => {
      expect((await email.api('POST', '/api/settings/reminder-delay', { ...as(), body: { reminderDelay: next } })).status).toBe(200);
      expect((await email.api('POST', '/api/resend/config', { ...as(), body: { from: 'Shop <shop@example.com>' } })).status).toBe(200);
    });
    expect(noop).toEqual([]);
  });

  it('unsubscribe list: an entry added (after), added again (no record), removed (before)', async () => {
    const add = await email.api('POST', '/api/email-unsubscribes/quick-add', { ...as(), body: { email: 'Listed@Example.com', reason: 'asked by phone' } });
    expect(add.status).toBe(201);
    const id = String(add.body.entry.id);
    const added = await recorded((x) => x.route === 'POST /api/email-unsubscribes/quick-add' && x.target_id === id, 'quick add');
    expect(added).toMatchObject({ target_kind: 'email-unsubscribe', change: { before: null, after: { email: 'listed@example.com', reason: 'asked by phone' } } });
    const again = await recordedAfter(async () => {
      expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { ...as(), body: { email: 'listed@example.com' } })).status).toBe(200);
    });
    expect(again).toEqual([]);
    expect((await email.api('POST', '/api/email-unsubscribes/remove', { ...as(), body: { id: Number(id) } })).status).toBe(200);
    const removed = await recorded((x) => x.route === 'POST /api/email-unsubscribes/remove', 'remove');
    expect(removed).toMatchObject({ target_id: id, change: { before: { email: 'listed@example.com' }, after: null } });
  });

  it('a write that fails after the state before was read leaves neither the change nor a record', async () => {
    const template = await email.api('POST', '/api/resend/templates', { ...as(), body: { name: 'Kept template', subject: 'Kept subject', html_content: '<p>x</p>' } });
    expect(template.status).toBe(201);
    const tid = String(template.body.id);
    const none = await recordedAfter(async () => {
      // Refused inside the update (the campaign does not exist), after the route read the template for its record.
      const r = await email.api('PATCH', `/api/resend/templates/${tid}`, { ...as(), body: { subject: 'Lost subject', campaign_id: 999999 } });
      expect(r.status).toBe(400);
      expect((await email.api('PUT', '/api/email/campaigns/999999', { ...as(), body: { name: 'Nobody' } })).status).toBe(404);
      expect((await email.api('DELETE', '/api/webhook-integrations/999999', as())).status).toBe(404);
    });
    expect(none.filter((x) => x.target_id !== tid || x.route !== 'POST /api/resend/templates')).toEqual([]);
    const list = (await email.api('GET', '/api/resend/templates', as())).body as { id: number; subject: string }[];
    expect(list.find((t) => String(t.id) === tid)?.subject).toBe('Kept subject');
  });

  it('a probe (test connection) is not recorded; clearing nothing is no change', async () => {
    // Whatever earlier tests left goes first (recorded: that is a change), then clearing again finds nothing.
    expect((await email.api('POST', '/api/test/clear-data', as())).status).toBe(200);
    await recorded((x) => x.action === 'test.clear-data' && x.actor?.username === testAdmin.username, 'first clear');
    const none = await recordedAfter(async () => {
      expect((await email.api('POST', '/api/resend/test-connection', as())).status).toBe(200);
      expect((await email.api('POST', '/api/test/clear-data', as())).status).toBe(200);
    });
    expect(none).toEqual([]);
  });
});
