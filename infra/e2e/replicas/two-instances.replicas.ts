// Two instances of every service behind the gateway (the replicas phase's stack; "minutes" of reminder delay are
// seconds here). Webhooks are spread over both instances and each reminder goes out once; then, under a steady
// 200 webhooks/s, one instance of svc-email and one of svc-sms are killed (SIGKILL): no request fails after the
// gateway's retry, no event is lost (each contact posted to one side reaches the other over NATS), and no
// reminder is sent twice.
import { startFakeTwilio, scrapeMetrics, type FakeTwilio } from '@act/testing';
import { killProcess, startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, inParallel, internalUrl, runTag, serviceDb, sleep, stack, stopwatch, waitFor } from '../faults/helpers';

let twilio: FakeTwilio;
let twilioEnv: Record<string, string>;
let cookie: string;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  twilioEnv = { TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_BASE_URL: twilio.url };
  // Both SMS instances send through the fake Twilio.
  for (const name of ['svc-sms', 'svc-sms-2'] as const) {
    await stopProcess(name);
    await startProcess(name, twilioEnv);
  }
  // The internal /readyz asks every instance now, which also puts the restarted ones back in rotation.
  await waitFor(async () => (await api('GET', '/readyz', { base: internalUrl })).status === 200, { timeoutMs: 30_000, what: 'every instance ready' });
  cookie = await adminCookie();
  expectStatus(await api('POST', '/api/twilio/config', { cookie, body: { phone_number: '+15005550006', blackout_enabled: false } }), 200);
}, 180_000);

afterAll(async () => {
  // Back to the stack's own settings for whatever runs next.
  for (const name of ['svc-sms', 'svc-sms-2'] as const) {
    await stopProcess(name).catch(() => undefined);
    await startProcess(name).catch(() => undefined);
  }
  await startProcess('svc-email-2').catch(() => undefined);
  await twilio?.stop();
}, 180_000);

/** An email and an SMS integration for one funnel; the SMS campaign has one template. Delays in seconds here. */
async function funnel(tag: string, delay: number) {
  const funnelId = `replicas-${tag}`;
  const email = expectStatus(
    await api('POST', '/api/webhook-integrations', { cookie, body: { name: `Replicas ${tag}`, funnel_id: funnelId, reminder_delay: delay } }),
    201,
  ).body;
  const campaign = expectStatus(await api('POST', '/api/sms-campaigns', { cookie, body: { name: `Replicas ${tag}`, integration_id: null, active: true } }), 201).body;
  expectStatus(
    await api('POST', '/api/sms-templates', {
      cookie,
      body: { campaign_id: campaign.id, name: 'Only', message: `Hi {first_name}, your cart ${tag} is waiting`, sequence_order: 1, delay_minutes: 0, active: true },
    }),
    201,
  );
  const sms = expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: { name: `Replicas ${tag}`, funnel_id: funnelId, sms_campaign_id: campaign.id, reminder_delay: delay, active: true },
    }),
    201,
  ).body;
  return { funnelId, emailIntegration: email.id as number, smsIntegration: sms.id as number };
}

/** Phone numbers of their own per run (the fake Twilio counts texts per number across both tests). */
let phoneBase = 5_000_000 + Math.floor(Math.random() * 1_000) * 3_000;
const phoneBases = new Map<string, number>();
const contactOf = (tag: string, i: number) => {
  if (!phoneBases.has(tag)) {
    phoneBases.set(tag, phoneBase);
    phoneBase += 2_500;
  }
  return { id: `${tag}-${i}`, email: `${tag}-${i}@example.com`, phone: `+1415${String(phoneBases.get(tag)! + i).padStart(7, '0')}`, first_name: 'Kim' };
};

/** Contact i is posted to one side only (even: email, odd: SMS): the other side learns of it from the event. */
const webhookFor = (funnelId: string, tag: string, i: number) => ({
  path: i % 2 ? '/api/sms/webhook' : '/api/webhook',
  body: { event: 'contact_created', funnel_id: funnelId, contact: contactOf(tag, i) },
});

/** Every contact on both sides, once each; each reminded exactly once on each channel. */
async function expectEachOnceOnBothSides(tag: string, count: number, ids: { emailIntegration: number; smsIntegration: number }) {
  const emailDb = await serviceDb('svc-email');
  const smsDb = await serviceDb('svc-sms');
  const phones = Array.from({ length: count }, (_, i) => contactOf(tag, i).phone);
  let seen = '';
  await waitFor(
    async () => {
      const counts = [
        await emailDb.collection('contacts').countDocuments({ integration_id: ids.emailIntegration }),
        await smsDb.collection('sms_contacts').countDocuments({ integration_id: ids.smsIntegration }),
      ];
      seen = `email ${counts[0]}, sms ${counts[1]}`;
      return counts.every((n) => n === count);
    },
    { timeoutMs: 120_000, everyMs: 500, what: `${count} contacts on each side` },
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last seen ${seen}`);
  });
  const emailIds = (await emailDb.collection('contacts').find({ integration_id: ids.emailIntegration }).toArray()).map((c) => c.contact_id as string);
  expect(new Set(emailIds).size).toBe(count);
  const smsPhones = (await smsDb.collection('sms_contacts').find({ integration_id: ids.smsIntegration }).toArray()).map((c) => c.phone as string);
  expect(new Set(smsPhones)).toEqual(new Set(phones));

  const emailLogs = () => emailDb.collection('email_logs').find({ contact_id: { $regex: `^${tag}-` } }).toArray();
  await waitFor(async () => (await emailLogs()).length >= count && phones.every((p) => twilio.messages.some((m) => m.to === p)), {
    timeoutMs: 150_000,
    everyMs: 500,
    what: `a reminder email and a text for each of the ${count} contacts`,
  });
  // Long enough for a second sweep, ticker pass or lease expiry on either instance to have sent a duplicate.
  await sleep(8_000);
  const perContact = new Map<string, number>();
  for (const l of await emailLogs()) perContact.set(l.contact_id, (perContact.get(l.contact_id) ?? 0) + 1);
  expect([...perContact.values()].filter((n) => n !== 1)).toEqual([]);
  expect(perContact.size).toBe(count);
  const texts = phones.map((p) => twilio.messages.filter((m) => m.to === p).length);
  expect(texts.filter((n) => n !== 1)).toEqual([]);
}

it('spreads webhooks over both instances of each service and sends each reminder once', async () => {
  const done = stopwatch('two instances: webhooks and reminders');
  const tag = `rs${runTag()}`;
  const ids = await funnel(tag, 3);
  const before = await Promise.all(['svc-email', 'svc-email-2', 'svc-sms', 'svc-sms-2'].map((n) => scrapeMetrics(`http://127.0.0.1:${stack.ports[`${n}-metrics`]}`)));
  const COUNT = 60;
  const answers = await inParallel(COUNT, 8, async (i) => {
    const { path, body } = webhookFor(ids.funnelId, tag, i);
    return (await api('POST', path, { body })).status;
  });
  expect(answers).toEqual(Array(COUNT).fill(200));
  // The gateway balanced them: each instance took some of its side's 30.
  const after = await Promise.all(['svc-email', 'svc-email-2', 'svc-sms', 'svc-sms-2'].map((n) => scrapeMetrics(`http://127.0.0.1:${stack.ports[`${n}-metrics`]}`)));
  const served = after.map((m, k) => m.value('act_webhook_deliveries_total', { outcome: 'created' }) - before[k]!.value('act_webhook_deliveries_total', { outcome: 'created' }));
  expect(served[0]! + served[1]!).toBe(COUNT / 2);
  expect(served[2]! + served[3]!).toBe(COUNT / 2);
  expect(served.every((n) => n >= 5)).toBe(true);
  await expectEachOnceOnBothSides(tag, COUNT, ids);
  done();
}, 240_000);

it('loses no request, event or reminder when one instance of svc-email and of svc-sms is killed under 200 webhooks/s', async () => {
  const done = stopwatch('two instances: one of each killed under load');
  const tag = `rk${runTag()}`;
  const ids = await funnel(tag, 4);
  const RATE = 200;
  const SECONDS = 12;
  const total = RATE * SECONDS;
  const statuses: number[] = new Array(total);
  const started = Date.now();
  let killed = false;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    // A steady rate: request i leaves at i / RATE seconds, whatever the answers' times.
    const due = started + (i * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    if (!killed && Date.now() - started >= 4_000) {
      killed = true;
      inFlight.push(Promise.all([killProcess('svc-email-2'), killProcess('svc-sms-2')]).then(() => undefined));
    }
    const { path, body } = webhookFor(ids.funnelId, tag, i);
    inFlight.push(
      api('POST', path, { body, timeoutMs: 30_000 }).then(
        (a) => void (statuses[i] = a.status),
        () => void (statuses[i] = 0),
      ),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (Date.now() - started) / 1000;
  console.log(`[replicas] ${total} webhooks in ${elapsed.toFixed(1)} s (${Math.round(total / elapsed)}/s), one instance of each service killed at 4 s`);
  const failed = statuses.map((s, i) => [i, s]).filter(([, s]) => s !== 200);
  expect(failed).toEqual([]);
  expect(killed).toBe(true);
  await expectEachOnceOnBothSides(tag, total, ids);
  done();
}, 420_000);
