// Campaign experiments through the gateway with the provider fakes: an SMS campaign with 2 variants of its step and a
// 20% holdout over 1,000 contacts. The split is within 3 points of the shares, no held-out contact gets a text (the
// fake Twilio's records), each variant's text went to exactly its contacts, and the results API counts the same.
// In the faults phase because it restarts svc-sms against the fake Twilio, as the provider tests do.
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, inParallel, runTag, serviceDb, waitFor } from './helpers';

const CONTACTS = 1_000;
const DELAY_MINUTES = 600;

let twilio: FakeTwilio | null = null;

afterAll(async () => {
  if (twilio) {
    await stopProcess('svc-sms');
    await startProcess('svc-sms');
    await twilio.stop();
  }
}, 120_000);

it('SMS: 2 variants and a 20% holdout over 1,000 contacts: split within 3 points, no text to the holdout, counts equal to the fake Twilio', async () => {
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
