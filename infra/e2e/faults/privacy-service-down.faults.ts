// A privacy export and a privacy erase while svc-sms is down: the request is durable (JetStream), the
// email side answers at once, the SMS side when it is started again. The export lists what each side holds about the
// person, and nothing about anyone else; the erase, of a person reminded on both channels, leaves nothing findable
// by their address or number on either side, the Dashboard, SMS Statistics and revenue counts as they were, and a
// new delivery for them accepted but never reminded.
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import type { PrivacyExport, PrivacyRequestView } from '@act/contracts/src/privacy';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, runTag, serviceDb, sleep, waitFor } from './helpers';

const tag = runTag();
const person = { email: `Privacy.${tag}@Example.com`, phone: `+1415777${String(Date.now() % 10_000).padStart(4, '0')}` };
const other = { email: `bystander.${tag}@example.com`, phone: '+14155559876' };

let twilio: FakeTwilio | null = null;

afterAll(async () => {
  // svc-sms back to the stack's own settings (no fake Twilio).
  if (twilio) await stopProcess('svc-sms').catch(() => undefined);
  await startProcess('svc-sms').catch(() => undefined);
  await twilio?.stop();
}, 120_000);

it('answers from each side, the stopped one when it returns, with that person\'s records only', async () => {
  const cookie = await adminCookie();
  const funnel = `privacy-${tag}`;
  expectStatus(await api('POST', '/api/webhook-integrations', { cookie, body: { name: funnel, funnel_id: funnel, reminder_delay: 600 } }), 201);
  expectStatus(await api('POST', '/api/sms-webhook-integrations', { cookie, body: { name: funnel, funnel_id: funnel, reminder_delay: 600, active: true } }), 201);
  for (const [i, p] of [person, other].entries()) {
    const body = { event: 'contact_created', funnel_id: funnel, contact: { id: `priv-${tag}-${i}`, email: p.email, phone: p.phone, first_name: 'Pat' } };
    expectStatus(await api('POST', '/api/webhook', { body }), 200);
    expectStatus(await api('POST', '/api/sms/webhook', { body }), 200);
  }
  // The SMS side hears the contact over NATS.
  await waitFor(
    async () => ((await api('GET', `/api/sms-contacts?page=1&search=${encodeURIComponent(person.phone)}`, { cookie })).body as { items: unknown[] }).items.length > 0,
    { what: 'the SMS contact' },
  );

  await stopProcess('svc-sms');
  const created = expectStatus(await api('POST', '/api/privacy-requests', { cookie, body: { email: person.email, phone: person.phone } }), 201).body as PrivacyRequestView;
  expect(created).toMatchObject({ kind: 'export', email: person.email.toLowerCase(), status: 'pending' });
  const read = async () => (await api('GET', `/api/privacy-requests/${created.id}`, { cookie })).body as PrivacyRequestView;
  await waitFor(async () => (await read()).services['svc-email'].status === 'done', { what: 'the email side\'s answer' });
  await sleep(2_000);
  expect((await read()).services['svc-sms'].status).toBe('pending');

  await startProcess('svc-sms');
  const done = await waitFor(async () => {
    const r = await read();
    return r.status === 'done' ? r : null;
  }, { timeoutMs: 60_000, what: 'the SMS side\'s answer after its restart' });
  expect(done.services['svc-sms']).toMatchObject({ status: 'done', error: null });
  expect(done.services['svc-email'].counts.contacts).toBe(1);

  const doc = expectStatus(await api('GET', `/api/privacy-requests/${created.id}/export.json`, { cookie }), 200).body as PrivacyExport;
  const email = doc.data['svc-email'];
  const sms = doc.data['svc-sms'];
  expect((email.contacts as { email: string }[]).map((c) => c.email.toLowerCase())).toEqual([person.email.toLowerCase()]);
  expect((email.webhook_deliveries as { payload: string }[]).length).toBeGreaterThan(0);
  expect((sms.contacts as { phone: string }[]).map((c) => c.phone)).toEqual([person.phone]);
  const text = JSON.stringify(doc);
  expect(text).not.toContain(other.email);
  expect(text).not.toContain(other.phone);
}, 180_000);

it('erases a person reminded on both channels, the stopped side when it returns; counts stay, nothing more is sent', async () => {
  const cookie = await adminCookie();
  const tag2 = runTag();
  const funnel = `erase-${tag2}`;
  const who = { email: `Erase.${tag2}@Example.com`, phone: `+1415666${String(Date.now() % 10_000).padStart(4, '0')}` };
  const keep = { email: `keeper.${tag2}@example.com`, phone: '+14155559871' };
  twilio = await startFakeTwilio();
  const smsEnv = { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_BASE_URL: twilio.url };
  await stopProcess('svc-sms');
  await startProcess('svc-sms', smsEnv);

  // Both sides: an integration each (long delay: nothing comes due by itself), an SMS campaign of one text.
  expectStatus(await api('POST', '/api/twilio/config', { cookie, body: { phone_number: '+15005550006', blackout_enabled: false } }), 200);
  const campaign = expectStatus(await api('POST', '/api/sms-campaigns', { cookie, body: { name: funnel, integration_id: null, active: true } }), 201).body;
  const smsIntegration = expectStatus(
    await api('POST', '/api/sms-webhook-integrations', { cookie, body: { name: funnel, funnel_id: funnel, sms_campaign_id: campaign.id, reminder_delay: 600, active: true } }),
    201,
  ).body;
  expectStatus(await api('POST', '/api/sms-templates', { cookie, body: { campaign_id: campaign.id, name: 'Back', message: 'Hi {first_name}, your cart waits', sequence_order: 1, delay_minutes: 0, active: true } }), 201);
  expectStatus(await api('POST', '/api/webhook-integrations', { cookie, body: { name: funnel, funnel_id: funnel, reminder_delay: 600 } }), 201);
  const post = async (p: { email: string; phone: string }, id: string) => {
    const body = { event: 'contact_created', funnel_id: funnel, contact: { id, email: p.email, phone: p.phone, first_name: 'Pat' } };
    expectStatus(await api('POST', '/api/webhook', { body }), 200);
    expectStatus(await api('POST', '/api/sms/webhook', { body }), 200);
  };
  await post(who, `e-${tag2}-0`);
  await post(keep, `e-${tag2}-1`);
  const emailDb = await serviceDb('svc-email');
  const smsDb = await serviceDb('svc-sms');
  const mine = (id: string) => ({ contact_id: { $regex: `^${id}` } });
  await waitFor(async () => (await smsDb.collection('sms_contacts').countDocuments(mine(`e-${tag2}-`))) === 2, { what: 'both SMS contacts' });

  // Reminded on both channels: due now, seen by each service at its start (as after an outage).
  await stopProcess('svc-email');
  await stopProcess('svc-sms');
  const now = new Date();
  await emailDb.collection('contacts').updateMany({ ...mine(`e-${tag2}-`), status: 'pending' }, { $set: { remind_at: now } });
  // Email's flow rows are its schedule: their reminder step moves with remind_at.
  await emailDb.collection('email_sequence_steps').updateMany({ ...mine(`e-${tag2}-`), stage: 'remind' }, { $set: { due_at: now, base_at: now } });
  await smsDb.collection('sms_contacts').updateMany(mine(`e-${tag2}-`), { $set: { remind_at: now, next_at: now } });
  await startProcess('svc-email');
  await startProcess('svc-sms', smsEnv);
  await waitFor(async () => (await emailDb.collection('email_logs').countDocuments(mine(`e-${tag2}-`))) === 2, { timeoutMs: 60_000, what: 'both email reminders' });
  await waitFor(async () => twilio!.messages.filter((m) => [who.phone, keep.phone].includes(m.to)).length === 2, { timeoutMs: 60_000, what: 'both texts' });
  // Each reminder is a touch in both ledgers (over NATS): wait for them before counting.
  await waitFor(async () => (await emailDb.collection('revenue_touches').countDocuments({ funnelId: funnel })) === 4 && (await smsDb.collection('revenue_touches').countDocuments({ funnelId: funnel })) === 4, { timeoutMs: 60_000, what: 'the touches in both ledgers' });

  const counts = async () => {
    const total = async (q: string) => (expectStatus(await api('GET', `/api/contacts?page=1&pageSize=1${q}`, { cookie }), 200).body as { total: number }).total;
    return {
      contacts: await total(''),
      sent: await total('&status=sent'),
      purchased: await total('&status=purchased'),
      smsStats: expectStatus(await api('GET', `/api/sms-stats-simple?date_range=today&integration_id=${smsIntegration.id}`, { cookie }), 200).body,
      emailRevenue: expectStatus(await api('GET', '/api/revenue/summary?days=7', { cookie }), 200).body.totals,
      smsRevenue: expectStatus(await api('GET', '/api/sms/revenue/summary?days=7', { cookie }), 200).body.totals,
    };
  };
  const before = await counts();
  const ask = async (kind: 'export' | 'erase') => expectStatus(await api('POST', '/api/privacy-requests', { cookie, body: { kind, email: who.email, phone: who.phone } }), 201).body as PrivacyRequestView;
  const read = async (id: number) => (await api('GET', `/api/privacy-requests/${id}`, { cookie })).body as PrivacyRequestView;
  const finished = (id: number, what: string) => waitFor(async () => {
    const r = await read(id);
    return r.status === 'done' ? r : null;
  }, { timeoutMs: 90_000, what });

  const exported = await finished((await ask('export')).id, 'the export');
  expect(exported.services['svc-email'].counts).toMatchObject({ contacts: 1, email_logs: 1 });
  expect(exported.services['svc-sms'].counts).toMatchObject({ contacts: 1, sms_logs: 1 });

  // The erase, with svc-sms down: the email side at once, the SMS side when it is back.
  await stopProcess('svc-sms');
  const erase = await ask('erase');
  await waitFor(async () => (await read(erase.id)).services['svc-email'].status === 'done', { what: 'the email side\'s erase' });
  expect((await read(erase.id)).services['svc-sms'].status).toBe('pending');
  await startProcess('svc-sms', smsEnv);
  const erased = await finished(erase.id, 'the SMS side\'s erase after its restart');
  expect(erased).toMatchObject({ email: null, phone: null, erased_ref: expect.stringMatching(/^[0-9a-f]{12}$/) });
  expect(erased.services['svc-email'].counts).toMatchObject({ contacts: 1, email_logs: 1, suppression_entries: 1 });
  expect(erased.services['svc-sms'].counts).toMatchObject({ contacts: 1, sms_logs: 1, suppression_entries: 1 });

  // Nothing findable: an export finds nothing, no document of either service names them; the counts are the same.
  const after = await finished((await ask('export')).id, 'the export after the erase');
  for (const s of ['svc-email', 'svc-sms'] as const) expect(Object.values(after.services[s].counts).filter((n) => n > 0)).toEqual([]);
  // The number as the services store and log it (E.164 here, so its last ten digits in a row): a looser pattern would
  // meet timestamps and ids among the many records of the other fault tests.
  const digits = who.phone.slice(-10);
  for (const db of [emailDb, smsDb]) {
    for (const { name } of await db.listCollections().toArray()) {
      const text = JSON.stringify(await db.collection(name).find({}).toArray());
      expect([name, text.toLowerCase().includes(who.email.toLowerCase()), text.includes(digits)]).toEqual([name, false, false]);
    }
  }
  expect(await counts()).toEqual(before);

  // The same erase again: done, nothing changed.
  const again = await finished((await ask('erase')).id, 'the second erase');
  for (const s of ['svc-email', 'svc-sms'] as const) expect(Object.values(again.services[s].counts).filter((n) => n > 0)).toEqual([]);

  // A new delivery for them on both sides: accepted, never reminded.
  const texts = twilio.messages.length;
  await post(who, `e-${tag2}-new`);
  await waitFor(async () => (await smsDb.collection('sms_contacts').countDocuments(mine(`e-${tag2}-new`))) === 1, { what: 'the new SMS contact' });
  await stopProcess('svc-email');
  await stopProcess('svc-sms');
  const later = new Date();
  await emailDb.collection('contacts').updateMany(mine(`e-${tag2}-new`), { $set: { remind_at: later } });
  await emailDb.collection('email_sequence_steps').updateMany({ ...mine(`e-${tag2}-new`), stage: 'remind' }, { $set: { due_at: later, base_at: later } });
  await smsDb.collection('sms_contacts').updateMany(mine(`e-${tag2}-new`), { $set: { remind_at: later, next_at: later } });
  await startProcess('svc-email');
  await startProcess('svc-sms', smsEnv);
  const log = await waitFor(async () => emailDb.collection('email_logs').findOne(mine(`e-${tag2}-new`)), { timeoutMs: 60_000, what: 'the new contact\'s reminder decision' });
  expect(log.status).toBe('unsubscribed');
  const smsContact = await waitFor(async () => smsDb.collection('sms_contacts').findOne({ ...mine(`e-${tag2}-new`), status: 'opted_out' }), { timeoutMs: 60_000, what: 'the new SMS contact stopped' });
  expect(smsContact.next_at).toBeNull();
  expect(twilio.messages.length).toBe(texts);
}, 600_000);
