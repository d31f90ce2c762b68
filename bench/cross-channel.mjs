#!/usr/bin/env node
// Cross-channel: a purchase posted on one side → the same contact on the other side marked purchased (its reminder
// cancelled). One funnel posts every contact to both webhook URLs (a contact on each side), then purchases are posted
// to the email webhook (watched on svc-sms) and to the SMS webhook (watched on svc-email). The time is from just
// before the purchase is posted to the first poll that sees the other side's contact purchased: a narrow query by
// the contact's unique key every POLL_MS (so figures are over by up to POLL_MS). Target: p99 <= 500 ms.
//   node bench/cross-channel.mjs [--purchases=200] [--background=2000] [--concurrency=4]
import { adminClient, benchStack, loadAvg, percentile, postAll, sleep, writeResult } from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PURCHASES = arg('purchases', 200);
const BACKGROUND = arg('background', 2000);
const CONCURRENCY = arg('concurrency', 4);
const POLL_MS = 10;
const TARGET = { p99Ms: 500 };

const run = Date.now().toString(36);
const stack = await benchStack('cross', {});
const load = { start: loadAvg() };
try {
  const api = await adminClient(stack);
  const funnel = `cross-${run}`;
  const emailIntegration = await api('POST', '/api/webhook-integrations', {
    name: 'Cross bench',
    funnel_id: funnel,
    reminder_delay: 720,
    active: true,
    resend_template_id: null,
    campaign_id: null,
  });
  const smsIntegration = await api('POST', '/api/sms-webhook-integrations', {
    name: 'Cross bench',
    funnel_id: funnel,
    reminder_delay: 720,
    active: true,
  });
  const total = BACKGROUND + 2 * PURCHASES;
  const contact = (i) => ({
    id: `x-${i}`,
    email: `cross${i}@example.com`,
    phone: `+1415${String(3_000_000 + i).padStart(7, '0')}`,
    first_name: 'Sam',
  });
  // Every contact to both URLs, as a funnel set up for both sides does.
  const created = await postAll({
    bases: [stack.url],
    count: 2 * total,
    concurrency: 32,
    item: (i) => ({
      path: i % 2 ? '/api/sms/webhook' : '/api/webhook',
      body: { event: 'contact_created', funnel_id: funnel, contact: contact(i >> 1) },
    }),
  });
  if (created.failed) throw new Error(`creating contacts: ${created.failed} failed (${created.firstError})`);
  const emailContacts = (await stack.db('svc-email')).collection('contacts');
  const smsContacts = (await stack.db('svc-sms')).collection('sms_contacts');
  // Both sides also create each other's contacts from the events; wait until the consumers have caught up.
  const settle = Date.now() + 10 * 60_000;
  while (
    (await emailContacts.countDocuments({ integration_id: emailIntegration.id })) < total ||
    (await smsContacts.countDocuments({ integration_id: smsIntegration.id })) < total
  ) {
    if (Date.now() > settle) throw new Error('contacts did not reach both sides within 10 minutes');
    await sleep(1_000);
  }
  console.log(
    `[bench] ${total} contacts on both sides after ${((Date.now() - (settle - 10 * 60_000)) / 1000).toFixed(0)} s of settling (created at ${Math.round((2 * total) / (created.ms / 1000))} webhooks/s)`,
  );
  await sleep(2_000);

  async function direction({ from, watch, key, offset }) {
    const times = [];
    const answers = [];
    const afterAnswer = [];
    let missed = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PURCHASES) {
          const i = BACKGROUND + offset + next++;
          const c = contact(i);
          const t0 = performance.now();
          const res = await fetch(`${stack.url}${from}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              event: 'purchase_created',
              funnel_id: funnel,
              contact: c,
              purchase: { amount: 10, currency: 'USD' },
            }),
          });
          await res.text();
          if (!res.ok) throw new Error(`${from}: ${res.status}`);
          const answered = performance.now();
          answers.push(answered - t0);
          const deadline = t0 + 10_000;
          for (;;) {
            const doc = await watch.findOne(key(c), { projection: { _id: 0, status: 1 } });
            if (doc?.status === 'purchased') {
              times.push(performance.now() - t0);
              afterAnswer.push(performance.now() - answered);
              break;
            }
            if (performance.now() > deadline) {
              missed++;
              break;
            }
            await sleep(POLL_MS);
          }
        }
      }),
    );
    times.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    afterAnswer.sort((a, b) => a - b);
    return {
      purchases: PURCHASES,
      seen: times.length,
      missedAfter10s: missed,
      p50Ms: Math.round(percentile(times, 50)),
      p99Ms: Math.round(percentile(times, 99)),
      maxMs: Math.round(times.at(-1)),
      // The webhook's own answer time, part of the figure above: what is left is outbox → NATS → consumer → write.
      answerP50Ms: Math.round(percentile(answers, 50)),
      answerP99Ms: Math.round(percentile(answers, 99)),
      afterAnswerP50Ms: Math.round(percentile(afterAnswer, 50)),
      afterAnswerP99Ms: Math.round(percentile(afterAnswer, 99)),
    };
  }

  const emailToSms = await direction({
    from: '/api/webhook',
    watch: smsContacts,
    key: (c) => ({ integration_id: smsIntegration.id, contact_id: c.id }),
    offset: 0,
  });
  console.log('[bench] email → SMS', emailToSms);
  const smsToEmail = await direction({
    from: '/api/sms/webhook',
    watch: emailContacts,
    key: (c) => ({ integration_id: emailIntegration.id, contact_id: c.id }),
    offset: PURCHASES,
  });
  console.log('[bench] SMS → email', smsToEmail);
  load.end = loadAvg();
  const met = (r) => r.missedAfter10s === 0 && r.p99Ms <= TARGET.p99Ms;
  const result = {
    target: TARGET,
    settings: {
      purchasesPerDirection: PURCHASES,
      backgroundContacts: BACKGROUND,
      concurrency: CONCURRENCY,
      pollMs: POLL_MS,
    },
    load1: load,
    emailToSms: { ...emailToSms, met: met(emailToSms) },
    smsToEmail: { ...smsToEmail, met: met(smsToEmail) },
  };
  const file = writeResult('cross-channel', result);
  console.table({ 'email → SMS': emailToSms, 'SMS → email': smsToEmail });
  console.log(`[bench] load average ${load.start} → ${load.end}; written ${file}`);
} finally {
  await stack.stop();
}
