// The providers down while reminders fall due: the fake Resend gone (its port refuses connections) and
// the fake Twilio answering 503, for 60 s; svc-email and svc-sms keep retrying within their deadlines, and once the
// providers are back every reminder is delivered, none twice, none logged failed. Contacts are posted with a long delay and made due while the service
// is stopped, so all of them fall due at once inside the outage.
import { scrapeMetrics, startFakeResend, startFakeTwilio, type FakeResend, type FakeTwilio } from '@act/testing';
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, inParallel, runTag, serviceDb, sleep, stack, stopwatch, waitFor } from './helpers';

const OUTAGE_MS = 60_000;
const CONTACTS = 20;
const DELAY_MINUTES = 600;

let resend: FakeResend | null = null;
let twilio: FakeTwilio | null = null;

afterAll(async () => {
  // Both services back to the stack's own settings (no fakes, no live sending).
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

/** svc-email's own count of Resend calls that got no usable answer and were to be tried again (its /metrics). */
async function resendRetryableCalls(): Promise<number> {
  const metrics = await scrapeMetrics(`http://127.0.0.1:${stack.ports['svc-email-metrics']}`);
  return metrics.value('act_provider_calls_total', { provider: 'resend', outcome: 'retryable' });
}

async function emailScenario() {
  const done = stopwatch('Resend unreachable 60 s');
  resend = await startFakeResend();
  const env = {
    EMAIL_LIVE_SENDING: 'true',
    RESEND_BASE_URL: resend.url,
    RESEND_API_KEY: 're_outage',
    RESEND_FROM: 'Shop <shop@example.com>',
    REMINDER_DUE_SCAN_MS: '200',
    RESEND_RETRY_DEADLINE_MS: '150000',
    RESEND_RETRY_MAX_MS: '5000',
  };
  await stopProcess('svc-email');
  await startProcess('svc-email', env);
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `outage-email-${tag}`;
  const campaign = expectStatus(await api('POST', '/api/email/campaigns', { cookie, body: { name: `Outage ${tag}` } }), 201).body;
  expectStatus(
    await api('POST', '/api/resend/templates', {
      cookie,
      body: { campaign_id: campaign.id, name: 'Only', subject: `Outage ${tag}`, from_name: 'Shop', html_content: '<p>Back?</p>', template_order: 1, delay_hours: 0 },
    }),
    201,
  );
  expectStatus(
    await api('POST', '/api/webhook-integrations', {
      cookie,
      body: { name: `Outage ${tag}`, funnel_id: funnelId, reminder_delay: DELAY_MINUTES, campaign_id: campaign.id },
    }),
    201,
  );
  const address = (i: number) => `outage-${tag}-${i}@example.com`;
  await inParallel(CONTACTS, 8, async (i) =>
    expectStatus(
      await api('POST', '/api/webhook', {
        body: { event: 'contact_created', funnel_id: funnelId, contact: { id: `oe-${tag}-${i}`, email: address(i) } },
      }),
      200,
    ),
  );
  await stopProcess('svc-email');
  const db = await serviceDb('svc-email');
  const now = new Date();
  expect((await db.collection('contacts').updateMany({ email: { $regex: `^outage-${tag}-` } }, { $set: { remind_at: now } })).modifiedCount).toBe(CONTACTS);
  // The flow rows are the schedule: their reminder step moves with remind_at.
  expect(
    (await db.collection('email_sequence_steps').updateMany({ contact_id: { $regex: `^oe-${tag}-` }, stage: 'remind' }, { $set: { due_at: now, base_at: now } }))
      .modifiedCount,
  ).toBe(CONTACTS);
  const outageStarts = Date.now();
  await resend.unreachableFor(OUTAGE_MS);
  const outageEnds = Date.now() + OUTAGE_MS;
  await startProcess('svc-email', env);

  const delivered = () => Array.from({ length: CONTACTS }, (_, i) => resend!.emailsTo(address(i)).length);
  await waitFor(async () => delivered().every((n) => n >= 1), {
    timeoutMs: OUTAGE_MS + 90_000,
    everyMs: 1_000,
    what: `an email to each of the ${CONTACTS} addresses after the outage`,
  });
  expect(Date.now()).toBeGreaterThanOrEqual(outageEnds);
  await sleep(2_000);
  expect(delivered()).toEqual(Array(CONTACTS).fill(1));
  const logs = await db.collection('email_logs').find({ email: { $regex: `^outage-${tag}-` } }).toArray();
  expect(logs.map((l) => l.status).sort()).toEqual(Array(CONTACTS).fill('sent'));
  // The server was gone: no call reached it meanwhile, yet svc-email (restarted inside the outage, so its counters
  // began there) tried and was refused: its calls without an answer are counted as retryable.
  expect(resend.requests.filter((r) => r.at >= outageStarts && r.at < outageEnds)).toEqual([]);
  const unanswered = await resendRetryableCalls();
  expect(unanswered).toBeGreaterThan(0);
  console.log(`[faults] Resend unreachable 60 s: ${unanswered} calls refused at the door meanwhile, ${CONTACTS} emails delivered once after`);
  done();
}

async function smsScenario() {
  const done = stopwatch('Twilio 503 for 60 s');
  twilio = await startFakeTwilio();
  const env = {
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_BASE_URL: twilio.url,
    TWILIO_RETRY_DEADLINE_MS: '150000',
  };
  await stopProcess('svc-sms');
  await startProcess('svc-sms', env);
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `outage-sms-${tag}`;
  expectStatus(await api('POST', '/api/twilio/config', { cookie, body: { phone_number: '+15005550006', blackout_enabled: false } }), 200);
  const campaign = expectStatus(
    await api('POST', '/api/sms-campaigns', { cookie, body: { name: `Outage ${tag}`, integration_id: null, active: true } }),
    201,
  ).body;
  expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: { name: `Outage ${tag}`, funnel_id: funnelId, sms_campaign_id: campaign.id, reminder_delay: DELAY_MINUTES, active: true },
    }),
    201,
  );
  expectStatus(
    await api('POST', '/api/sms-templates', {
      cookie,
      body: { campaign_id: campaign.id, name: 'Only', message: `Outage ${tag} {first_name}`, sequence_order: 1, delay_minutes: 0, active: true },
    }),
    201,
  );
  const phone = (i: number) => `+1415${String(6_000_000 + i)}`;
  await inParallel(CONTACTS, 8, async (i) =>
    expectStatus(
      await api('POST', '/api/sms/webhook', {
        body: { event: 'contact_created', funnel_id: funnelId, contact: { id: `os-${tag}-${i}`, phone: phone(i), first_name: 'Sam' } },
      }),
      200,
    ),
  );
  await stopProcess('svc-sms');
  const db = await serviceDb('svc-sms');
  const now = new Date();
  expect((await db.collection('sms_contacts').updateMany({ funnel_id: funnelId }, { $set: { remind_at: now, next_at: now } })).modifiedCount).toBe(CONTACTS);
  twilio.downFor(OUTAGE_MS);
  const outageEnds = Date.now() + OUTAGE_MS;
  await startProcess('svc-sms', env);

  const sent = () => Array.from({ length: CONTACTS }, (_, i) => twilio!.messages.filter((m) => m.to === phone(i)).length);
  await waitFor(async () => sent().every((n) => n >= 1), {
    timeoutMs: OUTAGE_MS + 90_000,
    everyMs: 1_000,
    what: `an SMS to each of the ${CONTACTS} phones after the outage`,
  });
  expect(Date.now()).toBeGreaterThanOrEqual(outageEnds);
  await sleep(2_000);
  expect(sent()).toEqual(Array(CONTACTS).fill(1));
  const failed = await db.collection('sms_logs').countDocuments({ message: { $regex: `^Outage ${tag}` }, status: 'failed' });
  expect(failed).toBe(0);
  console.log(`[faults] Twilio 503 for 60 s: ${CONTACTS} messages delivered once after`);
  done();
}

it('Resend unreachable and Twilio answering 503 for 60 s while reminders fall due: each delivered once after they return', async () => {
  const results = await Promise.allSettled([emailScenario(), smsScenario()]);
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${['email', 'sms'][i]}: ${(r.reason as Error)?.stack ?? r.reason}`] : [],
  );
  if (failures.length) throw new Error(failures.join('\n\n'));
}, 300_000);
