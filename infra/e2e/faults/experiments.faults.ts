// Campaign experiments through the gateway with the provider fakes: an SMS campaign and an email campaign, each with 2
// variants of its step and a 20% holdout over 2,000 contacts. The split is within 3 points of the shares, no held-out
// contact gets a message on that channel (the fake Twilio's and fake Resend's records), each variant's message went
// to exactly its contacts, and the results API counts the same. In the faults phase because it restarts the services
// against the fakes, as the provider tests do.
import { startFakeResend, startFakeTwilio, type FakeResend, type FakeTwilio } from '@act/testing';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, inParallel, runTag, serviceDb, waitFor } from './helpers';

// Each contact's group is a hash of (campaign, step, contact): over 1,000 contacts a group's share has a binomial
// spread of 1.3 points, so "within 3 points" held in about 19 runs of 20 and the test failed the 20th (a group
// read 3.1 points off its share once). 2,000 contacts narrow the spread to 0.9 points: the same 3 points fail about once in
// several thousand runs.
const CONTACTS = 2_000;
const DELAY_MINUTES = 600;

let twilio: FakeTwilio | null = null;
let resend: FakeResend | null = null;

afterAll(async () => {
  if (resend) {
    await stopProcess('svc-email');
    await startProcess('svc-email');
    await resend.close();
  }
  if (twilio) {
    await stopProcess('svc-sms');
    await startProcess('svc-sms');
    await twilio.stop();
  }
}, 120_000);

it('SMS: 2 variants and a 20% holdout over 2,000 contacts: split within 3 points, no text to the holdout, counts equal to the fake Twilio', async () => {
  twilio = await startFakeTwilio();
  const env = { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_BASE_URL: twilio.url };
  await stopProcess('svc-sms');
  await startProcess('svc-sms', env);
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `exp-sms-${tag}`;
  expectStatus(await api('POST', '/api/twilio/config', { cookie, body: { phone_number: '+15005550006', blackout_enabled: false } }), 200);
  const campaign = expectStatus(await api('POST', '/api/sms-campaigns', { cookie, body: { name: `Experiment ${tag}`, integration_id: null, active: true } }), 201).body;
  const template = expectStatus(
    await api('POST', '/api/sms-templates', {
      cookie,
      body: { campaign_id: campaign.id, name: 'Only', message: `Own text ${tag} {first_name}`, sequence_order: 1, delay_minutes: 0, active: true },
    }),
    201,
  ).body;
  const variant = (id: string) => ({ id, share: 50, subject: null, content: `Variant ${id} ${tag} {first_name}`, delay: null, incentive: null });
  // The shares are checked: 2 to 4 variants adding up to 100.
  expectStatus(
    await api('PUT', `/api/sms-campaigns/${campaign.id}/experiment`, { cookie, body: { holdout_percent: 20, steps: [{ template_id: template.id, variants: [variant('A'), { ...variant('B'), share: 40 }] }] } }),
    400,
  );
  const experiment = expectStatus(
    await api('PUT', `/api/sms-campaigns/${campaign.id}/experiment`, { cookie, body: { holdout_percent: 20, steps: [{ template_id: template.id, variants: [variant('A'), variant('B')] }] } }),
    200,
  ).body;
  expect(experiment).toMatchObject({ campaign_id: campaign.id, holdout_percent: 20, auto_winner: false, winner_min_recipients: 500, winners: [] });
  expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: { name: `Experiment ${tag}`, funnel_id: funnelId, sms_campaign_id: campaign.id, reminder_delay: DELAY_MINUTES, active: true },
    }),
    201,
  );
  const phone = (i: number) => `+1415${String(7_000_000 + i)}`;
  await inParallel(CONTACTS, 8, async (i) =>
    expectStatus(
      await api('POST', '/api/sms/webhook', { body: { event: 'contact_created', funnel_id: funnelId, contact: { id: `ex-${tag}-${i}`, phone: phone(i), first_name: 'Sam' } } }),
      200,
    ),
  );
  // All due at once: made due while the service is stopped (its due list is read at start).
  await stopProcess('svc-sms');
  const db = await serviceDb('svc-sms');
  const now = new Date();
  expect((await db.collection('sms_contacts').updateMany({ funnel_id: funnelId }, { $set: { remind_at: now, next_at: now } })).modifiedCount).toBe(CONTACTS);
  await startProcess('svc-sms', env);

  const handled = async () => {
    const contacts = await db.collection('sms_contacts').find({ funnel_id: funnelId }, { projection: { _id: 0, id: 1 } }).toArray();
    return db.collection('sms_logs').countDocuments({ contact_ref: { $in: contacts.map((c) => c.id) }, status: { $in: ['held_out', 'queued', 'sent', 'delivered'] } });
  };
  await waitFor(async () => (await handled()) >= CONTACTS, { timeoutMs: 240_000, everyMs: 2_000, what: `a step handled for each of the ${CONTACTS} contacts` });

  const contacts = await db.collection('sms_contacts').find({ funnel_id: funnelId }, { projection: { _id: 0, phone: 1, experiment: 1 } }).toArray();
  const group = (c: (typeof contacts)[number]) => (c.experiment?.holdout ? 'holdout' : (c.experiment?.variants?.[String(template.id)] ?? 'none'));
  const phonesOf = (g: string) => new Set(contacts.filter((c) => group(c) === g).map((c) => c.phone as string));
  const held = phonesOf('holdout');
  const a = phonesOf('A');
  const b = phonesOf('B');
  expect(held.size + a.size + b.size).toBe(CONTACTS);
  // Within 3 points of 20 / 40 / 40.
  for (const [set, share] of [[held, 20], [a, 40], [b, 40]] as const) expect(Math.abs((set.size / CONTACTS) * 100 - share)).toBeLessThanOrEqual(3);

  const mine = twilio.messages.filter((m) => m.body.includes(tag));
  // No held-out contact got a text; each variant's text went to exactly its contacts, once.
  expect(mine.filter((m) => held.has(m.to))).toEqual([]);
  const toA = mine.filter((m) => m.body === `Variant A ${tag} Sam`).map((m) => m.to);
  const toB = mine.filter((m) => m.body === `Variant B ${tag} Sam`).map((m) => m.to);
  expect(mine.length).toBe(toA.length + toB.length);
  expect(new Set(toA)).toEqual(a);
  expect(new Set(toB)).toEqual(b);
  expect(toA.length).toBe(a.size);
  expect(toB.length).toBe(b.size);

  // The results come from the ledger (fed through NATS): the same counts once it has every touch and holdout mark.
  const results = await waitFor(
    async () => {
      const r = expectStatus(await api('GET', `/api/sms-campaigns/${campaign.id}/results`, { cookie }), 200).body;
      const [va, vb] = r.steps[0].variants;
      return va.recipients === a.size && vb.recipients === b.size && r.holdout.recipients === held.size ? r : null;
    },
    { timeoutMs: 60_000, everyMs: 1_000, what: 'the results to count every variant and the holdout' },
  );
  expect(results.reminded.recipients).toBe(a.size + b.size);
  expect(results.steps[0].variants.map((v: { id: string }) => v.id)).toEqual(['A', 'B']);
  expect(results.incremental).toEqual({ status: 'not_enough_data', reminded_more_needed: null, holdout_more_needed: null });
  // The CSV export: a row per variant, then the reminded contacts and the holdout.
  const csv = expectStatus(await api('GET', `/api/sms-campaigns/${campaign.id}/results?format=csv`, { cookie }), 200).body as string;
  const rows = csv.trim().split('\n').map((r) => r.split(','));
  expect(rows.map((r) => [r[2], r[3]])).toEqual([
    ['group', 'recipients'],
    ['A', String(a.size)],
    ['B', String(b.size)],
    ['reminded', String(a.size + b.size)],
    ['holdout', String(held.size)],
  ]);
}, 420_000);

it('email: 2 variants (subject and content) and a 20% holdout over 2,000 contacts: split within 3 points, no email to the holdout, counts equal to the fake Resend', async () => {
  resend = await startFakeResend();
  const env = { EMAIL_LIVE_SENDING: 'true', RESEND_BASE_URL: resend.url, RESEND_API_KEY: 're_experiment', RESEND_FROM: 'Shop <shop@example.com>', EMAIL_SEQUENCE_SCAN_MS: '200' };
  await stopProcess('svc-email');
  await startProcess('svc-email', env);
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `exp-email-${tag}`;
  const campaign = expectStatus(await api('POST', '/api/email/campaigns', { cookie, body: { name: `Experiment ${tag}` } }), 201).body;
  const template = expectStatus(
    await api('POST', '/api/resend/templates', {
      cookie,
      body: { campaign_id: campaign.id, name: 'Only', subject: `Own ${tag}`, from_name: 'Shop', html_content: '<p>Own</p>', template_order: 1, delay_hours: 0 },
    }),
    201,
  ).body;
  const variant = (id: string) => ({ id, share: 50, subject: `Variant ${id} ${tag}`, content: `<p>Variant ${id}</p>`, delay: null, incentive: null });
  // A step of another campaign is refused.
  expectStatus(await api('PUT', `/api/email/campaigns/${campaign.id}/experiment`, { cookie, body: { holdout_percent: 20, steps: [{ template_id: 999_999, variants: [variant('A'), variant('B')] }] } }), 400);
  expectStatus(await api('PUT', `/api/email/campaigns/${campaign.id}/experiment`, { cookie, body: { holdout_percent: 60, steps: [] } }), 400);
  expectStatus(
    await api('PUT', `/api/email/campaigns/${campaign.id}/experiment`, { cookie, body: { holdout_percent: 20, steps: [{ template_id: template.id, variants: [variant('A'), variant('B')] }] } }),
    200,
  );
  expectStatus(
    await api('POST', '/api/webhook-integrations', { cookie, body: { name: `Experiment ${tag}`, funnel_id: funnelId, reminder_delay: DELAY_MINUTES, campaign_id: campaign.id } }),
    201,
  );
  const address = (i: number) => `exp-${tag}-${i}@example.com`;
  await inParallel(CONTACTS, 8, async (i) =>
    expectStatus(await api('POST', '/api/webhook', { body: { event: 'contact_created', funnel_id: funnelId, contact: { id: `ee-${tag}-${i}`, email: address(i) } } }), 200),
  );
  // All due at once: made due while the service is stopped.
  await stopProcess('svc-email');
  const db = await serviceDb('svc-email');
  const now = new Date();
  const refs = (await db.collection('contacts').find({ email: { $regex: `^exp-${tag}-` } }, { projection: { _id: 0, id: 1 } }).toArray()).map((c) => c.id as number);
  expect(refs).toHaveLength(CONTACTS);
  await db.collection('contacts').updateMany({ id: { $in: refs } }, { $set: { remind_at: now } });
  await db.collection('email_sequence_steps').updateMany({ contact_ref: { $in: refs } }, { $set: { due_at: now, base_at: now } });
  await startProcess('svc-email', env);

  const handled = () => db.collection('email_logs').countDocuments({ contact_ref: { $in: refs }, status: { $in: ['held_out', 'sent'] } });
  await waitFor(async () => (await handled()) >= CONTACTS, { timeoutMs: 240_000, everyMs: 2_000, what: `an email step handled for each of the ${CONTACTS} contacts` });

  const rows = await db.collection('email_sequence_steps').find({ contact_ref: { $in: refs } }, { projection: { _id: 0, contact_ref: 1, experiment: 1 } }).toArray();
  const emails = new Map((await db.collection('contacts').find({ id: { $in: refs } }, { projection: { _id: 0, id: 1, email: 1 } }).toArray()).map((c) => [c.id as number, c.email as string]));
  const group = (r: (typeof rows)[number]) => (r.experiment?.holdout ? 'holdout' : (r.experiment?.variants?.[String(template.id)] ?? 'none'));
  const addressesOf = (g: string) => new Set(rows.filter((r) => group(r) === g).map((r) => emails.get(r.contact_ref as number)!));
  const held = addressesOf('holdout');
  const a = addressesOf('A');
  const b = addressesOf('B');
  expect(held.size + a.size + b.size).toBe(CONTACTS);
  for (const [set, share] of [[held, 20], [a, 40], [b, 40]] as const) expect(Math.abs((set.size / CONTACTS) * 100 - share)).toBeLessThanOrEqual(3);

  const mine = resend.emails.filter((e) => e.subject.includes(tag));
  expect(mine.filter((e) => e.to.some((t) => held.has(t)))).toEqual([]);
  const toA = mine.filter((e) => e.subject === `Variant A ${tag}` && e.html.includes('Variant A')).flatMap((e) => e.to);
  const toB = mine.filter((e) => e.subject === `Variant B ${tag}` && e.html.includes('Variant B')).flatMap((e) => e.to);
  expect(mine.length).toBe(toA.length + toB.length);
  expect(new Set(toA)).toEqual(a);
  expect(new Set(toB)).toEqual(b);
  expect(toA.length).toBe(a.size);
  expect(toB.length).toBe(b.size);
  // The contact page's timeline says what a held-out contact is.
  const heldRef = rows.find((r) => r.experiment?.holdout)!.contact_ref;
  expect(await db.collection('email_logs').findOne({ contact_ref: heldRef }, { projection: { _id: 0, message: 1, status: 1 } })).toEqual({ message: 'held out (control group)', status: 'held_out' });

  const results = await waitFor(
    async () => {
      const r = expectStatus(await api('GET', `/api/email/campaigns/${campaign.id}/results`, { cookie }), 200).body;
      const [va, vb] = r.steps[0].variants;
      return va.recipients === a.size && vb.recipients === b.size && r.holdout.recipients === held.size ? r : null;
    },
    { timeoutMs: 60_000, everyMs: 1_000, what: 'the email results to count every variant and the holdout' },
  );
  expect(results.reminded.recipients).toBe(a.size + b.size);
  expect(results.channel).toBe('email');
}, 420_000);
