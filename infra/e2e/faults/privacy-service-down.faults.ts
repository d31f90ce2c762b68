// A privacy export (issue 18) while svc-sms is down: the request is durable (JetStream), the email side answers at
// once, the SMS side when it is started again; the document then lists what each side holds about the person, and
// nothing about anyone else.
import type { PrivacyExport, PrivacyRequestView } from '@act/contracts/src/privacy';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, runTag, sleep, waitFor } from './helpers';

const tag = runTag();
const person = { email: `Privacy.${tag}@Example.com`, phone: `+1415777${String(Date.now() % 10_000).padStart(4, '0')}` };
const other = { email: `bystander.${tag}@example.com`, phone: '+14155559876' };

afterAll(async () => {
  await startProcess('svc-sms').catch(() => undefined);
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
