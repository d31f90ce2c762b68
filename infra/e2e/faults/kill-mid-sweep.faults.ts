// svc-email and svc-sms killed (SIGKILL) in the middle of sending a large batch of due reminders, then started
// again: every reminder goes out, none twice (email: one log per contact; SMS: one message per contact and
// template at a fake Twilio). Contacts are posted through the webhooks with a long delay; while the service is
// down their reminder time is moved to now in its database, so at restart all of them are due at once, as
// after an outage (on a loaded machine, posting them may take longer than any short delay).
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { killProcess, startProcess, stopProcess } from '../stack';
import { adminCookie, api, expectStatus, inParallel, runTag, serviceDb, sleep, stopwatch, waitFor } from './helpers';

const EMAIL_CONTACTS = 1_000;
const SMS_CONTACTS = 300;
/** Minutes: nothing comes due by itself during the test. */
const DELAY_MINUTES = 600;

let twilio: FakeTwilio | null = null;
let smsEnv: Record<string, string> = {};

/** Starts `name` again with `env` while `during` watches it; `during` may kill it before it is healthy. */
async function startWatching(name: 'svc-email' | 'svc-sms', env: Record<string, string>, during: () => Promise<void>) {
  const starting = startProcess(name, env).then(
    () => null,
    (err: Error) => err,
  );
  await during();
  // A kill during start makes startProcess fail ("exited before answering /healthz"): that is the point here.
  await starting;
}

afterAll(async () => {
  // svc-sms back to the stack's own settings (no fake Twilio).
  if (twilio) {
    await stopProcess('svc-sms');
    await startProcess('svc-sms');
    await twilio.stop();
  }
}, 120_000);

/** svc-email: a reminder batch interrupted by SIGKILL is finished after restart, each contact logged once. */
async function emailScenario() {
  const done = stopwatch('svc-email killed mid-sweep');
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `kill-email-${tag}`;
  const integration = expectStatus(
    await api('POST', '/api/webhook-integrations', {
      cookie,
      body: { name: `Kill ${tag}`, funnel_id: funnelId, reminder_delay: DELAY_MINUTES },
    }),
    201,
  ).body;
  const db = await serviceDb('svc-email');
  const contacts = db.collection('contacts');
  const logs = db.collection('email_logs');
  const mine = { integration_id: integration.id };

  await inParallel(EMAIL_CONTACTS, 16, async (i) =>
    expectStatus(
      await api('POST', '/api/webhook', {
        body: {
          event: 'contact_created',
          funnel_id: funnelId,
          contact: { id: `e-${tag}-${i}`, email: `e${i}.${tag}@example.com` },
        },
      }),
      200,
    ),
  );
  await killProcess('svc-email');
  // All due while the service is down: at restart the due poller finds all of them. The reminder's due time is
  // the contact's remind_at and its flow row's due_at (the schedule), moved together.
  const now = new Date();
  expect(
    (await contacts.updateMany({ ...mine, status: 'pending' }, { $set: { remind_at: now } })).modifiedCount,
  ).toBe(EMAIL_CONTACTS);
  expect(
    (
      await db
        .collection('email_sequence_steps')
        .updateMany({ ...mine, stage: 'remind' }, { $set: { base_at: now, due_at: now } })
    ).modifiedCount,
  ).toBe(EMAIL_CONTACTS);

  let atKill = { sent: 0, logged: 0 };
  await startWatching('svc-email', {}, async () => {
    await waitFor(async () => (await contacts.countDocuments({ ...mine, status: 'sent' })) > 0, {
      everyMs: 5,
      timeoutMs: 60_000,
      what: 'svc-email to start sending',
    });
    await killProcess('svc-email');
    atKill = {
      sent: await contacts.countDocuments({ ...mine, status: 'sent' }),
      logged: await logs.countDocuments({ contact_id: { $regex: `^e-${tag}-` } }),
    };
  });
  console.log(
    `[faults] svc-email killed with ${atKill.sent} contacts claimed and ${atKill.logged} logged of ${EMAIL_CONTACTS}`,
  );
  expect(atKill.logged).toBeLessThan(EMAIL_CONTACTS);

  await startProcess('svc-email');
  const perContact = async () => {
    const rows = await logs
      .aggregate<{ _id: string; n: number }>([
        { $match: { contact_id: { $regex: `^e-${tag}-` } } },
        { $group: { _id: '$contact_id', n: { $sum: 1 } } },
      ])
      .toArray();
    return rows;
  };
  const rows = await waitFor(
    async () => {
      const r = await perContact();
      return r.length === EMAIL_CONTACTS ? r : null;
    },
    { timeoutMs: 60_000, everyMs: 500, what: `a reminder log for each of the ${EMAIL_CONTACTS} contacts` },
  ).catch(async (err) => {
    const r = await perContact();
    const sentNoLog = await contacts.countDocuments({ ...mine, status: 'sent' });
    throw new Error(`${(err as Error).message}: ${r.length} contacts logged, ${sentNoLog} marked sent`);
  });
  expect(rows.filter((r) => r.n !== 1)).toEqual([]);
  expect(await contacts.countDocuments({ ...mine, status: 'sent' })).toBe(EMAIL_CONTACTS);
  done();
}

/** svc-sms: a sequence sweep interrupted by SIGKILL is finished after restart, each (contact, template) sent once. */
async function smsScenario() {
  const done = stopwatch('svc-sms killed mid-sweep');
  twilio = await startFakeTwilio();
  smsEnv = {
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_BASE_URL: twilio.url,
    // A step in flight when the process dies is taken up again after its lease (5 min by default).
    SMS_STEP_LEASE_MS: '20000',
  };
  await stopProcess('svc-sms');
  await startProcess('svc-sms', smsEnv);
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `kill-sms-${tag}`;
  expectStatus(
    await api('POST', '/api/twilio/config', {
      cookie,
      body: { phone_number: '+15005550006', blackout_enabled: false },
    }),
    200,
  );
  const campaign = expectStatus(
    await api('POST', '/api/sms-campaigns', {
      cookie,
      body: { name: `Kill ${tag}`, integration_id: null, active: true },
    }),
    201,
  ).body;
  expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: {
        name: `Kill ${tag}`,
        funnel_id: funnelId,
        sms_campaign_id: campaign.id,
        reminder_delay: DELAY_MINUTES,
        active: true,
      },
    }),
    201,
  );
  const templates = [
    { message: `First ${tag} {first_name}`, delay_minutes: 0 },
    { message: `Second ${tag} {first_name}`, delay_minutes: 0 },
  ];
  for (const [i, t] of templates.entries()) {
    expectStatus(
      await api('POST', '/api/sms-templates', {
        cookie,
        body: {
          campaign_id: campaign.id,
          name: `Step ${i + 1}`,
          message: t.message,
          sequence_order: i + 1,
          delay_minutes: t.delay_minutes,
          active: true,
        },
      }),
      201,
    );
  }
  const phone = (i: number) => `+1415${String(5_000_000 + i)}`;
  await inParallel(SMS_CONTACTS, 16, async (i) =>
    expectStatus(
      await api('POST', '/api/sms/webhook', {
        body: {
          event: 'contact_created',
          funnel_id: funnelId,
          contact: { id: `s-${tag}-${i}`, phone: phone(i), first_name: 'Sam' },
        },
      }),
      200,
    ),
  );
  await killProcess('svc-sms');
  const smsDb = await serviceDb('svc-sms');
  const contacts = smsDb.collection('sms_contacts');
  const now = new Date();
  expect(
    (await contacts.updateMany({ funnel_id: funnelId }, { $set: { remind_at: now, next_at: now } })).modifiedCount,
  ).toBe(SMS_CONTACTS);
  expect(twilio.messages.length).toBe(0);

  const expected = SMS_CONTACTS * templates.length;
  let atKill = 0;
  await startWatching('svc-sms', smsEnv, async () => {
    await waitFor(async () => twilio!.messages.length >= SMS_CONTACTS / 3, {
      everyMs: 5,
      timeoutMs: 90_000,
      what: 'svc-sms to start sending',
    });
    await killProcess('svc-sms');
    atKill = twilio!.messages.length;
  });
  console.log(`[faults] svc-sms killed after ${atKill} of ${expected} messages`);
  expect(atKill).toBeLessThan(expected);

  await startProcess('svc-sms', smsEnv);
  const counts = () => {
    const n = new Map<string, number>();
    for (const m of twilio!.messages) n.set(`${m.to} ${m.body}`, (n.get(`${m.to} ${m.body}`) ?? 0) + 1);
    return n;
  };
  await waitFor(async () => counts().size === expected, {
    timeoutMs: 90_000,
    everyMs: 500,
    what: `one message per contact and template (${expected})`,
  }).catch(async (err) => {
    const leased = await contacts.countDocuments({ funnel_id: funnelId, next_at: { $gt: new Date() } });
    const claims = await smsDb.collection('sms_sends').countDocuments({});
    throw new Error(
      `${(err as Error).message}: ${counts().size} distinct of ${twilio!.messages.length} messages; ` +
        `${leased} contacts still leased (next_at ahead), ${claims} send claims`,
    );
  });
  await sleep(1_000);
  const twice = [...counts()].filter(([, n]) => n > 1);
  expect(twice).toEqual([]);
  expect(twilio.messages.length).toBe(expected);
  done();
}

// Both at once: independent services and data, and the suite's time budget is tight.
it('svc-email and svc-sms killed (SIGKILL) mid-sweep and restarted: nothing lost, nothing sent twice', async () => {
  const results = await Promise.allSettled([emailScenario(), smsScenario()]);
  const failures = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${['svc-email', 'svc-sms'][i]}: ${(r.reason as Error)?.stack ?? r.reason}`] : [],
  );
  if (failures.length) throw new Error(failures.join('\n\n'));
}, 240_000);
