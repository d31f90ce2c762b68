// svc-sms's part of the audit log: each staff change leaves an audit.recorded event on the bus with the
// before and after of the fields it changed, secrets left out; an update that changes nothing and a probe (test
// connection) leave none; a test SMS is recorded as an action (a message went out), without a diff.
import { connect, type NatsConnection, type Subscription } from 'nats';
import { call, testAdmin, type ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import type { AuditRecord } from '@act/contracts/src/audit';
import { dropDb, dropStream, postContact, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';

jest.setTimeout(120_000);

let svc: ServiceProcess;
let t: SmsTestEnv;
let twilio: FakeTwilio;
let nc: NatsConnection;
let sub: Subscription;
const seen: AuditRecord[] = [];

beforeAll(async () => {
  twilio = await startFakeTwilio();
  t = smsTestEnv('audit', twilio);
  svc = await startSms(t);
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  sub = nc.subscribe(`${t.natsPrefix}audit.recorded`);
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(m.string()));
  })();
});
afterAll(async () => {
  sub?.unsubscribe();
  await nc?.close();
  await svc?.stop();
  await twilio?.stop();
  if (t) {
    await dropStream(t.natsPrefix);
    await dropDb(t.db);
  }
});

const ADDRESS = '192.0.2.55';
const api = (method: string, path: string, body?: unknown) =>
  call(svc.url, method, path, { user: testAdmin, headers: { 'x-forwarded-for': ADDRESS }, body });
const recorded = (match: (r: AuditRecord) => boolean, what: string) =>
  waitFor(async () => seen.find(match) ?? null, 10_000).catch(() => {
    throw new Error(`no audit record: ${what}`);
  });

let controls = 0;
/** Everything recorded while `action` ran, once a positive control (a campaign created after it) has arrived. */
async function recordedDuring(action: () => Promise<void>): Promise<AuditRecord[]> {
  const mark = seen.length;
  await action();
  const control = await api('POST', '/api/sms-campaigns', { name: `Control ${++controls}`, integration_id: null, active: false });
  expect(control.status).toBe(201);
  const id = String(control.body.id);
  await recorded((x) => x.route === 'POST /api/sms-campaigns' && x.target_id === id, 'control');
  return seen.slice(mark).filter((x) => x.target_id !== id);
}

it('integration: a rename with before and after, the secret as set/changed only, an unchanged save not recorded, a delete with the state before', async () => {
  const made = await api('POST', '/api/sms-webhook-integrations', { name: 'SMS before', funnel_id: 'sms-audit', reminder_delay: 5, active: true });
  expect(made.status).toBe(201);
  const id = String(made.body.id);
  expect((await api('PATCH', `/api/sms-webhook-integrations/${id}`, { name: 'SMS after' })).status).toBe(200);
  const renamed = await recorded((x) => x.route === 'PATCH /api/sms-webhook-integrations/:id' && x.target_id === id, 'rename');
  expect(renamed).toMatchObject({ service: 'svc-sms', ip: ADDRESS, actor: { username: testAdmin.username } });
  expect(renamed.change).toEqual({ before: { name: 'SMS before' }, after: { name: 'SMS after' } });

  const secret = 'sms-signing-secret-never-logged-1';
  expect((await api('PATCH', `/api/sms-webhook-integrations/${id}`, { webhook_secret: secret })).status).toBe(200);
  const set = await recorded((x) => x.target_id === id && x.change.after?.webhook_secret === '[set]', 'secret set');
  expect(set.change).toEqual({ before: { webhook_secret: '[not set]' }, after: { webhook_secret: '[set]' } });
  expect(JSON.stringify(seen)).not.toContain(secret);

  const unchanged = await recordedDuring(async () => {
    expect((await api('PATCH', `/api/sms-webhook-integrations/${id}`, { name: 'SMS after', reminder_delay: 5 })).status).toBe(200);
  });
  expect(unchanged).toEqual([]);

  expect((await api('DELETE', `/api/sms-webhook-integrations/${id}`)).status).toBe(200);
  const deleted = await recorded((x) => x.route === 'DELETE /api/sms-webhook-integrations/:id' && x.target_id === id, 'delete');
  expect(deleted.change.after).toBeNull();
  expect(deleted.change.before).toMatchObject({ name: 'SMS after', funnel_id: 'sms-audit', reminder_delay: 5 });
  expect(JSON.stringify(deleted)).not.toContain(secret);
});

it('campaign and template: updates with before and after, no-op updates not recorded, deletions with the state before', async () => {
  const campaign = await api('POST', '/api/sms-campaigns', { name: 'Audit SMS campaign', integration_id: null, active: true });
  expect(campaign.status).toBe(201);
  const cid = String(campaign.body.id);
  expect((await api('PATCH', `/api/sms-campaigns/${cid}`, { active: false })).status).toBe(200);
  const cu = await recorded((x) => x.route === 'PATCH /api/sms-campaigns/:id' && x.target_id === cid, 'campaign update');
  expect(cu.change).toEqual({ before: { active: true }, after: { active: false } });

  const template = await api('POST', '/api/sms-templates', { campaign_id: Number(cid), name: 'Step', message: 'Old text', sequence_order: 1, delay_minutes: 0, active: true });
  expect(template.status).toBe(201);
  const tid = String(template.body.id);
  expect((await api('PATCH', `/api/sms-templates/${tid}`, { message: 'New text' })).status).toBe(200);
  const tu = await recorded((x) => x.route === 'PATCH /api/sms-templates/:id' && x.target_id === tid, 'template update');
  expect(tu.change).toEqual({ before: { message: 'Old text' }, after: { message: 'New text' } });

  const noop = await recordedDuring(async () => {
    expect((await api('PATCH', `/api/sms-campaigns/${cid}`, { active: false })).status).toBe(200);
    expect((await api('PATCH', `/api/sms-templates/${tid}`, { message: 'New text' })).status).toBe(200);
  });
  expect(noop).toEqual([]);

  expect((await api('DELETE', `/api/sms-templates/${tid}`)).status).toBe(200);
  const td = await recorded((x) => x.route === 'DELETE /api/sms-templates/:id' && x.target_id === tid, 'template delete');
  expect(td.change).toMatchObject({ before: { name: 'Step', message: 'New text' }, after: null });
  expect((await api('DELETE', `/api/sms-campaigns/${cid}`)).status).toBe(200);
  const cd = await recorded((x) => x.route === 'DELETE /api/sms-campaigns/:id' && x.target_id === cid, 'campaign delete');
  expect(cd.change).toMatchObject({ before: { name: 'Audit SMS campaign', active: false }, after: null });
});

it('Twilio settings and blackout: the fields that moved; the same settings again, a connection test: no record; a test SMS: an action', async () => {
  expect((await api('POST', '/api/twilio/config', { phone_number: '+15005550006', blackout_enabled: false })).status).toBe(200);
  await recorded((x) => x.route === 'POST /api/twilio/config', 'first config');
  const mark = seen.length;
  expect((await api('POST', '/api/twilio/config', { phone_number: '+15005550006', blackout_enabled: true, blackout_start_hour: 21 })).status).toBe(200);
  const cfg = await waitFor(async () => seen.slice(mark).find((x) => x.route === 'POST /api/twilio/config') ?? null);
  expect(cfg).toMatchObject({ target_kind: 'provider-settings', target_id: 'twilio' });
  expect(cfg.change.before).toMatchObject({ blackout_enabled: false });
  expect(cfg.change.after).toMatchObject({ blackout_enabled: true, blackout_start_hour: 21 });
  expect(cfg.change.after).not.toHaveProperty('phone_number');

  // A messaging service SID names the sender (not a secret): its value is kept.
  const sid = `MG${'0123456789abcdef'.repeat(2)}`;
  const mark2 = seen.length;
  expect((await api('POST', '/api/twilio/config', { phone_number: '+15005550006', messaging_service_sid: sid, blackout_enabled: true, blackout_start_hour: 21 })).status).toBe(200);
  const svcCfg = await waitFor(async () => seen.slice(mark2).find((x) => x.route === 'POST /api/twilio/config') ?? null);
  expect(svcCfg.change.after).toMatchObject({ messaging_service_sid: sid });
  expect(svcCfg.change.before).toMatchObject({ messaging_service_sid: '' });

  const none = await recordedDuring(async () => {
    expect((await api('POST', '/api/twilio/config', { phone_number: '+15005550006', messaging_service_sid: sid, blackout_enabled: true, blackout_start_hour: 21 })).status).toBe(200);
    expect((await api('POST', '/api/twilio/test-connection')).status).toBe(200);
  });
  expect(none).toEqual([]);

  const sent = await api('POST', '/api/twilio/test-sms', { test_phone: '+15005550009', test_message: 'Hello from the audit test' });
  expect(sent.status).toBe(200);
  const test = await recorded((x) => x.route === 'POST /api/twilio/test-sms', 'test sms');
  expect(test.change.before).toBeNull();
  expect(test.change.after).toMatchObject({ test_phone: '+15005550009' });
});

it('mark purchased: the status before and after; again (already purchased) and clearing nothing: no record', async () => {
  const funnel = await api('POST', '/api/sms-webhook-integrations', { name: 'Buyers', funnel_id: 'sms-audit-buyers', reminder_delay: 60, active: true });
  expect(funnel.status).toBe(201);
  expect((await postContact(svc.url, 'sms-audit-buyers', 'SMS-AUD-1', '+15005550101')).status).toBe(200);
  const contact = await waitFor(async () => {
    const r = await api('GET', '/api/sms-contacts');
    return (r.body as { id: number; contact_id: string; status: string }[]).find((c) => c.contact_id === 'SMS-AUD-1') ?? null;
  });
  expect((await api('POST', '/api/sms-contacts/mark-purchased', { contact_id: contact.id })).status).toBe(200);
  const marked = await recorded((x) => x.route === 'POST /api/sms-contacts/mark-purchased', 'mark purchased');
  expect(marked).toMatchObject({
    target_kind: 'sms-contact',
    target_id: String(contact.id),
    change: { before: { status: { [contact.id]: contact.status } }, after: { status: { [contact.id]: 'purchased' } } },
  });
  const again = await recordedDuring(async () => {
    expect((await api('POST', '/api/sms-contacts/mark-purchased', { contact_id: contact.id })).status).toBe(200);
  });
  expect(again).toEqual([]);
  expect((await api('POST', '/api/sms-contacts/clear')).status).toBe(200);
  const cleared = await recorded((x) => x.route === 'POST /api/sms-contacts/clear', 'clear');
  expect(cleared.change).toEqual({ before: { contacts: 1 }, after: { contacts: 0 } });

  const none = await recordedDuring(async () => {
    expect((await api('POST', '/api/sms-contacts/clear')).status).toBe(200);
  });
  expect(none).toEqual([]);
});

it('a refused change leaves no record (a failed write leaves neither the change nor the record)', async () => {
  const none = await recordedDuring(async () => {
    expect((await api('POST', '/api/sms-webhook-integrations', { name: '' })).status).toBe(400);
    expect((await api('PATCH', '/api/sms-campaigns/999999', { name: 'Nobody' })).status).toBe(404);
    expect((await api('DELETE', '/api/sms-templates/999999')).status).toBe(404);
  });
  expect(none).toEqual([]);
});
