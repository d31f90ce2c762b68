#!/usr/bin/env node
// Webhook intake through the gateway (both webhook URLs) at a sustained load, next to a bare Koa echo measured in
// the same run, then a count proving every accepted event was stored.
// Target: >= 2,000 events/s, p99 <= 50 ms, ratio to the bare echo >= 0.25.
// A signed ClickFunnels 2.0 phase follows on each side (`contact.identified` posted to an integration's own URL,
// each delivery HMAC-signed with the integration's secret, each with its own event_id so the replay guard stores
// one row per delivery): its events/s must stay within 15% of the unsigned figure of the same run.
// A signed Stripe Checkout phase follows it, judged the same way (`checkout.session.expired` to an integration
// pinned to Stripe, each delivery signed by the official library's generateTestHeaderString with its `whsec_`
// secret, each with its own event and session id); at the first steady --rate it runs again beside the unsigned
// phase at that rate, for the CPU milliseconds per event of each (the signature's own cost, free of saturation).
// Beside them, for reference and not judged, an unsigned spec-format phase carrying the cart a Stripe event carries
// (total, currency, checkout link): Stripe's share of it parts what its cart costs from what its signature and format do.
// Each phase also records the CPU seconds of every process of the stack per accepted event (the machine is shared:
// CPU per event is the figure that does not depend on what else runs). A warm-up on every URL measured comes first (not
// counted): the stand-in is a fresh JVM whose JIT compiles during its first seconds of load, which a running
// deployment never pays per event.
// After the saturation phases (32 connections as fast as they go, where p50 is simply connections / throughput), each
// URL is loaded again at each steady --rate, requests evenly spaced and timed from when they were due (postPaced):
// 200 events/s shows latency where requests do not queue behind each other, 2,000 events/s is the target held for the
// whole phase; a stack that cannot keep up shows it as growing latency, not as a slower generator.
// The warm-up is 15 s per URL: the stand-in's JIT and the services' first batches settle in that time (with 5 s the
// first measured phase still ran 20-30% slower than the next identical one).
// Then the same saturation phases on a fresh stack with two instances of every service behind the gateway,
// next to the one-instance figures of this run; --replicas=1 skips it. On 2 cores a second instance adds no CPU: it
// shows what coordination costs (a second process per service, the gateway balancing, batches split in two).
//   node bench/webhooks.mjs [--duration=10] [--connections=32] [--warmup=15] [--rate=200,2000] [--replicas=2] [--rounds=1] [--fresh-store]
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import Stripe from 'stripe';
import {
  adminClient,
  benchStack,
  BENCH_DIR,
  cpuDelta,
  descendantCpu,
  loadAvg,
  postPaced,
  recordStandInGc,
  sleep,
  writeResult,
} from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DURATION = arg('duration', 10);
const CONNECTIONS = arg('connections', 32);
const WARMUP = arg('warmup', 15);
const RATES = (process.argv.find((a) => a.startsWith('--rate='))?.split('=')[1] ?? '200,2000')
  .split(',')
  .map(Number)
  .filter((r) => r > 0);
// --replicas=2 (default) also measures the saturation phases on a fresh stack with two instances of every service.
const REPLICAS = arg('replicas', 2);
// --rounds=N: each signed sender's phase, with the unsigned one after it, N times on each side; a sender's figure is
// the median of its phases' shares of the unsigned phases around each. Within one run the unsigned phases alone
// differ by up to a third (GC, the stand-in's growing store), as much as the 15% judged. More rounds grow the
// stand-in's store further: at 3 it stopped answering in the later fixed-rate phases.
const ROUNDS = Math.max(1, arg('rounds', 1));
// --fresh-store: before each measured phase, the shoppers the earlier phases left (contacts, their flow rows, stored
// deliveries, replay claims, per-contact jobs) are deleted, so every phase meets the same store. Without it the store
// grows phase after phase, and with it the stand-in's scans (it serves a range query by no index: the flow engines'
// due queries read every contact each poll) and its old-generation GC pauses, which land in one phase or another.
const FRESH_STORE = process.argv.includes('--fresh-store');
const TARGET = { eventsPerSec: 2000, p99Ms: 50, ratioToEcho: 0.25, signedWithinShare: 0.15 };
const SECRET = 'bench-clickfunnels-webhook-secret';
const STRIPE_SECRET = 'whsec_bench0123456789abcdefghijklmnop';

/** ClickFunnels 2.0's scheme: hex HMAC-SHA256 of "{unix seconds}.{raw body}" with the endpoint's secret. */
function signClickFunnels2(body) {
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    'X-Webhook-ClickFunnels-Signature': createHmac('sha256', SECRET).update(`${ts}.${body}`).digest('hex'),
    'X-Webhook-ClickFunnels-Timestamp': ts,
  };
}

/** Stripe's scheme (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of "{t}.{raw body}"), made by the official library. */
function signStripe(body) {
  return { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET }) };
}

function load(url, makeBody, duration = DURATION, sign = undefined) {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => {
              const body = JSON.stringify(makeBody(n++));
              return sign ? { ...req, body, headers: { ...req.headers, ...sign(body) } } : { ...req, body };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

function summary(result) {
  return {
    requests: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    eventsPerSec: Math.round(result['2xx'] / (result.duration || DURATION)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

async function startEcho() {
  const child = fork(path.join(BENCH_DIR, 'echo-server.mjs'), { stdio: 'ignore' });
  const port = await new Promise((resolve) => child.once('message', (m) => resolve(m.port)));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

async function waitForCount(read, expected, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let count = await read();
  while (count < expected && Date.now() < deadline) {
    await sleep(500);
    count = await read();
  }
  return count;
}

const run = Date.now().toString(36);

/** The integrations the unsigned phases post to (matched by funnel id on the plain URLs). */
async function createIntegrations(api) {
  const emailIntegration = await api('POST', '/api/webhook-integrations', {
    name: 'Bench funnel',
    funnel_id: `bench-${run}`,
    reminder_delay: 720,
    active: true,
    resend_template_id: null,
    campaign_id: null,
  });
  const smsIntegration = await api('POST', '/api/sms-webhook-integrations', {
    name: 'Bench SMS funnel',
    funnel_id: `bench-${run}`,
    reminder_delay: 720,
    active: true,
  });
  return { emailIntegration, smsIntegration };
}

/** A spec-format contact_created of the unsigned phases. */
const body = (i, prefix) => ({
  event: 'contact_created',
  funnel_id: `bench-${run}`,
  contact: {
    id: `${prefix}-${run}-${i}`,
    email: `shopper${i}@example.com`,
    phone: `+1415555${String(i % 10000).padStart(4, '0')}`,
  },
});

/** CPU ms per accepted event by kind of process (instances of one service summed), and in all. */
function cpuPerEvent(cpu, accepted) {
  const byKind = {};
  for (const [k, v] of Object.entries(cpu)) {
    const kind = k.replace(/ \d+$/, '');
    byKind[kind] = (byKind[kind] ?? 0) + v;
  }
  const per = (v) => +((1000 * v) / Math.max(1, accepted)).toFixed(2);
  const out = Object.fromEntries(
    Object.entries(byKind)
      .filter(([, v]) => v > 0.05)
      .map(([k, v]) => [k, per(v)]),
  );
  out.total = per(Object.values(cpu).reduce((a, b) => a + b, 0));
  return out;
}

const load1 = { start: loadAvg() };
// The stand-in's GC pauses per phase: a stop-the-world pause holds every request in flight, so it shows in p99.
const gc = recordStandInGc();
const stack = await benchStack('webhooks');
gc?.started();
const windows = {}; // phase → [start, end] epoch ms
let result = null;
const echo = await startEcho();
try {
  const api = await adminClient(stack);
  const { emailIntegration, smsIntegration } = await createIntegrations(api);
  // The signed phases post to an integration of their own (a secret makes its funnel refuse unsigned deliveries),
  // at its own URL, with its secret set (write-only, admin).
  const signedUrl = async (kind, integration, signing = { webhook_secret: SECRET }, funnel = `bench-signed-${run}`) => {
    const { id: _id, created_at: _c, webhook_url: _u, signing: _s, email_template: _t, ...fields } = integration;
    const twin = await api('POST', `/api/${kind}`, { ...fields, name: `${fields.name} (${funnel})`, funnel_id: funnel });
    const saved = await api('PATCH', `/api/${kind}/${twin.id}`, signing);
    return `${stack.url}${new URL(saved.webhook_url).pathname}`;
  };
  const emailSignedUrl = await signedUrl('webhook-integrations', emailIntegration);
  const smsSignedUrl = await signedUrl('sms-webhook-integrations', smsIntegration);
  // Stripe's integrations are pinned to Stripe (its secret and its sender), a funnel of their own.
  const stripeSigning = { webhook_secret: STRIPE_SECRET, webhook_source: 'stripe' };
  const emailStripeUrl = await signedUrl('webhook-integrations', emailIntegration, stripeSigning, `bench-stripe-${run}`);
  const smsStripeUrl = await signedUrl('sms-webhook-integrations', smsIntegration, stripeSigning, `bench-stripe-${run}`);
  // Each signed phase names contacts of its own: the other side hears every contact (cross-channel), so a phase
  // reusing the previous one's ids would update known contacts instead of creating them, unlike the unsigned phases.
  const firstId = { ec: 1_000_000, sc: 5_000_000, wec: 20_000_000, wsc: 30_000_000 };
  const idBase = (prefix) => (firstId[prefix] ??= 40_000_000 + 1_000_000 * Object.keys(firstId).length);
  const clickFunnels2Body = (i, prefix) => ({
    event_id: `${prefix}-${run}-${i}`,
    event_type: 'contact.identified',
    subject_id: idBase(prefix) + i,
    subject_type: 'Contact',
    created_at: new Date().toISOString(),
    page_id: 88123,
    funnel_id: 5521,
    data: {
      id: idBase(prefix) + i,
      public_id: `cf${i}`,
      email_address: `cf2.shopper${i}@example.com`,
      phone_number: `+1415556${String(i % 10000).padStart(4, '0')}`,
      first_name: 'Dana',
      last_name: 'Reyes',
    },
  });

  /** A checkout.session.expired Event as Stripe posts it: the session is the contact, its own id per delivery. */
  const stripeBody = (i, prefix) => {
    const session = `cs_test_${prefix}${run}${i}`;
    return {
      id: `evt_${prefix}${run}${i}`,
      object: 'event',
      api_version: '2025-06-30.basil',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.expired',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: {
        object: {
          id: session,
          object: 'checkout.session',
          mode: 'payment',
          status: 'expired',
          payment_status: 'unpaid',
          amount_subtotal: 7920,
          amount_total: 7920,
          currency: 'eur',
          customer_email: null,
          customer_details: { email: `stripe.shopper${i}@example.com`, name: 'Léa Martin', phone: `+1415557${String(i % 10000).padStart(4, '0')}` },
          consent: { promotions: 'opt_in', terms_of_service: null },
          after_expiration: { recovery: { allow_promotion_codes: true, enabled: true, expires_at: Math.floor(Date.now() / 1000) + 30 * 86_400, url: `https://buy.stripe.com/r/${session}` } },
          recovered_from: null,
          metadata: {},
        },
      },
    };
  };
  /**
   * The spec format's contact_created carrying what a Stripe event's cart holds (total, currency, checkout link, the
   * sender's time), unsigned, to the plain URL: beside the Stripe phase it parts what a cart costs (stored on the
   * contact, relayed, stored on the other side's) from what Stripe's signature and format cost.
   */
  const cartBody = (i, prefix) => ({
    event: 'contact_created',
    funnel_id: `bench-${run}`,
    contact: {
      id: `${prefix}-${run}-${i}`,
      email: `cart.shopper${i}@example.com`,
      phone: `+1415558${String(i % 10000).padStart(4, '0')}`,
      first_name: 'Léa',
      amount: 79.2,
      currency: 'EUR',
      recovery_url: `https://shop.example.com/cart/recover/${prefix}${run}${i}`,
      updated_at: new Date().toISOString(),
    },
  });
  const SIGNERS = {
    cf2: { make: (i, prefix) => clickFunnels2Body(i, prefix), sign: signClickFunnels2 },
    stripe: { make: (i, prefix) => stripeBody(i, prefix), sign: signStripe },
    cart: { make: (i, prefix) => cartBody(i, prefix), sign: undefined },
  };

  console.log(`[bench] ${CONNECTIONS} connections, ${DURATION} s per phase`);
  await load(echo.url, (i) => body(i, 'warm')); // warm-up of the load generator itself
  const echoResult = summary(await load(echo.url, (i) => body(i, 'echo')));
  console.log('[bench] bare Koa echo', echoResult);
  // Counted in the databases (the SMS list answers at most SMS_LIST_LIMIT rows), as the growth over each phase.
  const emailEvents = (await stack.db('svc-email')).collection('webhook_events');
  const smsEvents = (await stack.db('svc-sms')).collection('sms_webhook_events');
  if (WARMUP > 0) {
    await load(`${stack.url}/api/webhook`, (i) => body(i, 'we'), WARMUP);
    await load(`${stack.url}/api/sms/webhook`, (i) => body(i, 'ws'), WARMUP);
    // Every signed sender measured below too: its code (the library's verification, the replay write, Stripe's cart
    // and recovery link) is as cold at its first phase as the plain path was, and ran 10-15% slower there than in the
    // same phase repeated.
    for (const [url, prefix, signer] of [
      [emailSignedUrl, 'wec', 'cf2'],
      [smsSignedUrl, 'wsc', 'cf2'],
      [emailStripeUrl, 'wes', 'stripe'],
      [smsStripeUrl, 'wss', 'stripe'],
      [`${stack.url}/api/webhook`, 'wecart', 'cart'],
      [`${stack.url}/api/sms/webhook`, 'wscart', 'cart'],
    ])
      await load(url, (i) => SIGNERS[signer].make(i, prefix), WARMUP, SIGNERS[signer].sign);
    await sleep(2_000); // the consumers' and the relay's backlog of the warm-up
  }
  /**
   * --fresh-store: deletes what the deliveries of earlier phases grew (every other collection holds a few rows of
   * configuration); called once the stack is quiet, so no delivery is still being applied.
   */
  const SHOPPER_DATA = {
    'svc-email': ['contacts', 'email_sequence_steps', 'webhook_events', 'webhook_deliveries', 'processed_events'],
    'svc-sms': ['sms_contacts', 'sms_webhook_events', 'sms_webhook_deliveries', 'processed_events'],
  };
  async function clearShoppers() {
    let deleted = 0;
    for (const [service, names] of Object.entries(SHOPPER_DATA)) {
      const db = await stack.db(service);
      for (const name of names) deleted += (await db.collection(name).deleteMany({})).deletedCount;
    }
    return deleted;
  }
  /** One measured phase: the answers, the CPU seconds per process per accepted event, the rows stored meanwhile. */
  async function phase(url, prefix, events, rate = undefined, signed = undefined) {
    // Each phase starts once the last one's backlog is worked off (outboxes, cross-channel consumers): a phase that
    // shared the cores with it read as slower than it is, and the signed/unsigned comparison moved by 30 points.
    const settledMs = await stack.quiet();
    if (FRESH_STORE) await clearShoppers();
    const before = await events.countDocuments({});
    const cpu0 = descendantCpu();
    const t0 = Date.now();
    const sender = signed ? SIGNERS[signed] : null;
    const make = sender ? (i) => sender.make(i, prefix) : (i) => body(i, prefix);
    const r = await stack.opsPhase(prefix, async () =>
      rate
        ? await postPaced({ url, rate, durationSec: DURATION, connections: 2 * CONNECTIONS, body: make, sign: sender?.sign })
        : summary(await load(url, make, DURATION, sender?.sign)),
    );
    windows[prefix] = [t0, Date.now()];
    const cpu = cpuDelta(cpu0, descendantCpu());
    const stored = (await waitForCount(async () => (await events.countDocuments({})) - before, r.ok2xx)) ?? 0;
    return { ...r, stored, settledMs, cpuMsPerEvent: cpuPerEvent(cpu, r.ok2xx) };
  }
  /**
   * The signed senders of one side against its unsigned path, after the side's first unsigned phase: each sender's
   * phase, then an unsigned one, sender after sender, ROUNDS times. Each signed phase is judged against the unsigned
   * phases just before and after it (the stand-in slows as its collections grow), a sender by its median share.
   * The unsigned reference with a cart (`cart`, whose SIGNERS entry signs nothing) takes its turn the same way and is
   * reported, not judged: it has no `met`, and Stripe's entry gets its share of it (`shareOfCartPhase`).
   */
  async function signedRounds(side, unsignedUrl, events, first, senders) {
    const runs = Object.fromEntries(senders.map((s) => [s.signer, []]));
    let before = first;
    for (let round = 0; round < ROUNDS; round++) {
      const tag = round === 0 ? '' : String(round + 1);
      for (const s of senders) {
        const signed = await phase(s.url, `${s.prefix}${tag}`, events, undefined, s.signer);
        const after = await phase(unsignedUrl, `${s.prefix}u${tag}`, events);
        runs[s.signer].push({ signed, around: [before, after], share: signed.eventsPerSec / Math.max(1, (before.eventsPerSec + after.eventsPerSec) / 2) });
        before = after;
      }
    }
    // Stripe's share over the cart-carrying unsigned phase's of the same round: Stripe's cost beside its cart's.
    const overCart = runs.stripe && runs.cart ? runs.stripe.map((r, i) => r.share / runs.cart[i].share).sort((a, b) => a - b) : null;
    return Object.fromEntries(
      senders.map((s) => {
        const rs = runs[s.signer];
        // The round at the median share (the lower middle one of an even count) is the one reported in full.
        const mid = [...rs].sort((x, y) => x.share - y.share)[(rs.length - 1) >> 1];
        const shareOfUnsigned = +mid.share.toFixed(3);
        return [
          s.signer,
          {
            ...mid.signed,
            allStored: rs.every((r) => r.signed.stored >= r.signed.ok2xx && r.around[1].stored >= r.around[1].ok2xx),
            unsignedAround: mid.around.map((r) => r.eventsPerSec),
            shareOfUnsigned,
            ...(rs.length > 1 && { rounds: rs.map((r) => ({ eventsPerSec: r.signed.eventsPerSec, unsignedAround: r.around.map((u) => u.eventsPerSec), share: +r.share.toFixed(3) })) }),
            ...(SIGNERS[s.signer].sign && { met: { withinShare: rs.every((r) => r.signed.non2xx === 0) && shareOfUnsigned >= 1 - TARGET.signedWithinShare } }),
            ...(s.signer === 'stripe' && overCart && { shareOfCartPhase: +overCart[(overCart.length - 1) >> 1].toFixed(3) }),
          },
        ];
      }),
    );
  }
  const { stored: emailStored, ...emailResult } = await phase(`${stack.url}/api/webhook`, 'e', emailEvents);
  console.log('[bench] POST /api/webhook', emailResult);
  const emailSenders = await signedRounds('e', `${stack.url}/api/webhook`, emailEvents, { ...emailResult, stored: emailStored }, [
    { signer: 'cf2', url: emailSignedUrl, prefix: 'ec' },
    { signer: 'stripe', url: emailStripeUrl, prefix: 'est' },
    { signer: 'cart', url: `${stack.url}/api/webhook`, prefix: 'ecart' },
  ]);
  const { cf2: emailSigned, stripe: emailStripe, cart: emailCart } = emailSenders;
  console.log('[bench] signed ClickFunnels 2.0 to /api/webhook/i/<key>', emailSigned);
  console.log('[bench] signed Stripe Checkout to /api/webhook/i/<key>', emailStripe);
  const { stored: smsStored, ...smsResult } = await phase(`${stack.url}/api/sms/webhook`, 's', smsEvents);
  console.log('[bench] POST /api/sms/webhook', smsResult);
  const smsSenders = await signedRounds('s', `${stack.url}/api/sms/webhook`, smsEvents, { ...smsResult, stored: smsStored }, [
    { signer: 'cf2', url: smsSignedUrl, prefix: 'sc' },
    { signer: 'stripe', url: smsStripeUrl, prefix: 'sst' },
    { signer: 'cart', url: `${stack.url}/api/sms/webhook`, prefix: 'scart' },
  ]);
  const { cf2: smsSigned, stripe: smsStripe, cart: smsCart } = smsSenders;
  console.log('[bench] signed ClickFunnels 2.0 to /api/sms/webhook/i/<key>', smsSigned);
  console.log('[bench] signed Stripe Checkout to /api/sms/webhook/i/<key>', smsStripe);
  /** The same URL at a steady rate (evenly spaced): events/s kept up, p50/p99 from when each was due, all stored. */
  async function atRate(url, prefix, events, rate, signed = undefined) {
    await sleep(2_000);
    const { stored, cpuMsPerEvent, firstError, ...r } = await phase(url, `${prefix}${rate}`, events, rate, signed);
    const allStored = stored >= r.ok2xx;
    const met = { eventsPerSec: r.ok2xx === r.requests && r.eventsPerSec >= rate * 0.99, p99Ms: r.p99Ms <= TARGET.p99Ms };
    return { rate, ...r, stored, allStored, met, firstError, cpuMsPerEvent };
  }
  const emailAtRate = [];
  const smsAtRate = [];
  for (const rate of RATES) {
    emailAtRate.push(await atRate(`${stack.url}/api/webhook`, 'er', emailEvents, rate));
    console.log(`[bench] POST /api/webhook at ${rate}/s`, emailAtRate.at(-1));
    smsAtRate.push(await atRate(`${stack.url}/api/sms/webhook`, 'sr', smsEvents, rate));
    console.log(`[bench] POST /api/sms/webhook at ${rate}/s`, smsAtRate.at(-1));
  }
  // Signed Stripe at the first steady rate, beside the unsigned phase at that rate: CPU per event of each.
  const stripeAtRate = async (url, prefix, events, unsigned) => {
    const r = await atRate(url, prefix, events, unsigned.rate, 'stripe');
    return { ...r, unsignedCpuMsPerEvent: unsigned.cpuMsPerEvent, cpuShareOfUnsigned: +(r.cpuMsPerEvent.total / Math.max(0.01, unsigned.cpuMsPerEvent.total)).toFixed(3) };
  };
  const emailStripeAtRate = emailAtRate.length ? await stripeAtRate(emailStripeUrl, 'ers', emailEvents, emailAtRate[0]) : null;
  console.log(`[bench] signed Stripe to /api/webhook/i/<key> at ${RATES[0]}/s`, emailStripeAtRate);
  const smsStripeAtRate = smsAtRate.length ? await stripeAtRate(smsStripeUrl, 'srs', smsEvents, smsAtRate[0]) : null;
  console.log(`[bench] signed Stripe to /api/sms/webhook/i/<key> at ${RATES[0]}/s`, smsStripeAtRate);
  const verdict = (r) => ({
    eventsPerSec: r.eventsPerSec >= TARGET.eventsPerSec,
    p99Ms: r.p99Ms <= TARGET.p99Ms,
    ratioToEcho: r.eventsPerSec / echoResult.eventsPerSec >= TARGET.ratioToEcho,
  });
  load1.end = loadAvg();
  result = {
    target: TARGET,
    settings: { durationSec: DURATION, connections: CONNECTIONS, warmupSec: WARMUP, steadyRatesPerSec: RATES, rounds: ROUNDS, freshStore: FRESH_STORE },
    load1,
    echo: echoResult,
    email: {
      ...emailResult,
      ratioToEcho: +(emailResult.eventsPerSec / echoResult.eventsPerSec).toFixed(3),
      stored: emailStored,
      allStored: emailStored >= emailResult.ok2xx,
      met: verdict(emailResult),
      signedClickFunnels2: emailSigned,
      signedStripe: { ...emailStripe, atFixedRate: emailStripeAtRate },
      unsignedWithCart: emailCart,
      atFixedRate: emailAtRate,
    },
    sms: {
      ...smsResult,
      ratioToEcho: +(smsResult.eventsPerSec / echoResult.eventsPerSec).toFixed(3),
      stored: smsStored,
      allStored: smsStored >= smsResult.ok2xx,
      met: verdict(smsResult),
      signedClickFunnels2: smsSigned,
      signedStripe: { ...smsStripe, atFixedRate: smsStripeAtRate },
      unsignedWithCart: smsCart,
      atFixedRate: smsAtRate,
    },
  };
  const file = writeResult('webhooks', result);
  console.table({
    'bare echo': { 'events/s': echoResult.eventsPerSec, 'p50 ms': echoResult.p50Ms, 'p99 ms': echoResult.p99Ms },
    '/api/webhook': {
      'events/s': emailResult.eventsPerSec,
      'p50 ms': emailResult.p50Ms,
      'p99 ms': emailResult.p99Ms,
      ratio: result.email.ratioToEcho,
      stored: `${emailStored}/${emailResult.ok2xx}`,
    },
    '/api/sms/webhook': {
      'events/s': smsResult.eventsPerSec,
      'p50 ms': smsResult.p50Ms,
      'p99 ms': smsResult.p99Ms,
      ratio: result.sms.ratioToEcho,
      stored: `${smsStored}/${smsResult.ok2xx}`,
    },
    'signed CF2, email': {
      'events/s': emailSigned.eventsPerSec,
      'p50 ms': emailSigned.p50Ms,
      'p99 ms': emailSigned.p99Ms,
      ratio: emailSigned.shareOfUnsigned,
      stored: `${emailSigned.stored}/${emailSigned.ok2xx}`,
    },
    'signed CF2, SMS': {
      'events/s': smsSigned.eventsPerSec,
      'p50 ms': smsSigned.p50Ms,
      'p99 ms': smsSigned.p99Ms,
      ratio: smsSigned.shareOfUnsigned,
      stored: `${smsSigned.stored}/${smsSigned.ok2xx}`,
    },
    'signed Stripe, email': {
      'events/s': emailStripe.eventsPerSec,
      'p50 ms': emailStripe.p50Ms,
      'p99 ms': emailStripe.p99Ms,
      ratio: emailStripe.shareOfUnsigned,
      stored: `${emailStripe.stored}/${emailStripe.ok2xx}`,
    },
    'signed Stripe, SMS': {
      'events/s': smsStripe.eventsPerSec,
      'p50 ms': smsStripe.p50Ms,
      'p99 ms': smsStripe.p99Ms,
      ratio: smsStripe.shareOfUnsigned,
      stored: `${smsStripe.stored}/${smsStripe.ok2xx}`,
    },
  });
  for (const [name, r] of [
    ['ClickFunnels 2.0 (email)', emailSigned],
    ['ClickFunnels 2.0 (SMS)', smsSigned],
    ['Stripe Checkout (email)', emailStripe],
    ['Stripe Checkout (SMS)', smsStripe],
  ])
    console.log(
      `[bench] signed ${name}: ${r.eventsPerSec}/s, ${(100 * r.shareOfUnsigned).toFixed(1)}% of the unsigned phases around it (${r.unsignedAround.join(' and ')}/s; target >= ${100 * (1 - TARGET.signedWithinShare)}%)${r.rounds ? `, the median of ${r.rounds.map((x) => `${(100 * x.share).toFixed(1)}%`).join(', ')}` : ''}, ${r.non2xx} non-2xx`,
    );
  for (const [name, cart, stripe] of [
    ['email', emailCart, emailStripe],
    ['SMS', smsCart, smsStripe],
  ])
    console.log(
      `[bench] unsigned with a cart (${name}, for reference): ${cart.eventsPerSec}/s, ${(100 * cart.shareOfUnsigned).toFixed(1)}% of the unsigned phases around it; signed Stripe ${(100 * stripe.shareOfCartPhase).toFixed(1)}% of it (median of the rounds' shares)`,
    );
  for (const [name, r] of [
    ['email', emailStripeAtRate],
    ['SMS', smsStripeAtRate],
  ])
    if (r)
      console.log(
        `[bench] signed Stripe (${name}) at a steady ${r.rate}/s: ${r.cpuMsPerEvent.total} CPU ms per event, unsigned ${r.unsignedCpuMsPerEvent.total} (${(100 * r.cpuShareOfUnsigned).toFixed(1)}%), stored ${r.stored}/${r.ok2xx}`,
      );
  console.log(`[bench] written ${path.relative(process.cwd(), file)}`);
  for (const [name, list] of [
    ['/api/webhook', emailAtRate],
    ['/api/sms/webhook', smsAtRate],
  ])
    for (const r of list)
      console.log(
        `[bench] ${name} at a steady ${r.rate}/s: ${r.eventsPerSec}/s answered, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms, stored ${r.stored}/${r.ok2xx}`,
      );
  const fixedRateLost = [...emailAtRate, ...smsAtRate, emailSigned, smsSigned, emailStripe, smsStripe, emailCart, smsCart, ...[emailStripeAtRate, smsStripeAtRate].filter(Boolean)].some((r) => !r.allStored);
  if (!result.email.allStored || !result.sms.allStored || fixedRateLost) {
    console.error('[bench] FAIL: some accepted events were not stored');
    process.exitCode = 1;
  }
} finally {
  echo.stop();
  await stack.stop();
}
if (gc && result) {
  // e = /api/webhook, s = /api/sms/webhook, er<rate> / sr<rate> = the same at a steady rate.
  const at = (prefix) => (windows[prefix] ? gc.pauses(...windows[prefix]) : null);
  result.email.standInGc = at('e');
  result.sms.standInGc = at('s');
  for (const r of result.email.atFixedRate) r.standInGc = at(`er${r.rate}`);
  for (const r of result.sms.atFixedRate) r.standInGc = at(`sr${r.rate}`);
  writeResult('webhooks', result);
  result.email.signedClickFunnels2.standInGc = at('ec');
  result.sms.signedClickFunnels2.standInGc = at('sc');
  result.email.signedStripe.standInGc = at('est');
  result.sms.signedStripe.standInGc = at('sst');
  result.email.unsignedWithCart.standInGc = at('ecart');
  result.sms.unsignedWithCart.standInGc = at('scart');
  writeResult('webhooks', result);
  const phases = { e: '/api/webhook', s: '/api/sms/webhook', ec: 'signed CF2 email', sc: 'signed CF2 SMS', est: 'signed Stripe email', sst: 'signed Stripe SMS', ecart: 'unsigned with a cart email', scart: 'unsigned with a cart SMS' };
  for (const rate of RATES) {
    phases[`er${rate}`] = `/api/webhook at ${rate}/s`;
    phases[`sr${rate}`] = `/api/sms/webhook at ${rate}/s`;
  }
  for (const [name, p] of Object.entries(phases)) {
    const g = at(name);
    if (g) console.log(`[bench] stand-in GC during ${p}: ${g.count} pauses, ${g.totalMs} ms in all (${(100 * g.shareOfTime).toFixed(1)}% of the time), longest ${g.maxMs} ms`);
  }
}

/**
 * The saturation phases on a fresh stack with `replicas` instances of every service: the same warm-up, then both
 * URLs as fast as 32 connections go, every accepted event counted in the database.
 */
async function saturationWith(replicas) {
  const s = await benchStack(`webhooks${replicas}`, {}, { replicas });
  try {
    await createIntegrations(await adminClient(s));
    const sides = {
      email: { url: `${s.url}/api/webhook`, events: (await s.db('svc-email')).collection('webhook_events') },
      sms: { url: `${s.url}/api/sms/webhook`, events: (await s.db('svc-sms')).collection('sms_webhook_events') },
    };
    if (WARMUP > 0) {
      for (const [side, { url }] of Object.entries(sides)) await load(url, (i) => body(i, `w${side}${replicas}`), WARMUP);
      await sleep(2_000);
    }
    const out = {};
    for (const [side, { url, events }] of Object.entries(sides)) {
      const before = await events.countDocuments({});
      const cpu0 = descendantCpu();
      const r = summary(await load(url, (i) => body(i, `${side}${replicas}`)));
      const cpu = cpuDelta(cpu0, descendantCpu());
      const stored = (await waitForCount(async () => (await events.countDocuments({})) - before, r.ok2xx)) ?? 0;
      out[side] = { ...r, stored, allStored: stored >= r.ok2xx, cpuMsPerEvent: cpuPerEvent(cpu, r.ok2xx) };
      await sleep(2_000);
    }
    return out;
  } finally {
    await s.stop();
  }
}

if (result && REPLICAS > 1) {
  const two = await saturationWith(REPLICAS);
  const side = (one, many) => ({
    [`1 instance events/s`]: one.eventsPerSec,
    [`${REPLICAS} instances events/s`]: many.eventsPerSec,
    share: +(many.eventsPerSec / Math.max(1, one.eventsPerSec)).toFixed(3),
    [`1 instance p99 ms`]: one.p99Ms,
    [`${REPLICAS} instances p99 ms`]: many.p99Ms,
    [`CPU ms/event 1`]: one.cpuMsPerEvent.total,
    [`CPU ms/event ${REPLICAS}`]: many.cpuMsPerEvent.total,
    stored: `${many.stored}/${many.ok2xx}`,
  });
  result.instances = {
    replicas: REPLICAS,
    email: side(result.email, two.email),
    sms: side(result.sms, two.sms),
    detail: two,
  };
  writeResult('webhooks', result);
  console.table({ '/api/webhook': result.instances.email, '/api/sms/webhook': result.instances.sms });
  if (!two.email.allStored || !two.sms.allStored) {
    console.error(`[bench] FAIL: some events accepted by ${REPLICAS} instances were not stored`);
    process.exitCode = 1;
  }
}
