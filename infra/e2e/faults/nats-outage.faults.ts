// NATS stopped for 30 s while a funnel keeps posting to both webhook URLs, then started again: every delivery is
// stored, every outbox row is published once, and every cross-channel effect is applied exactly once.
import { connect } from 'nats';
import { startProcess, stopProcess } from '../stack';
import {
  adminCookie,
  api,
  funnelContact,
  inParallel,
  internalUrl,
  outboxesEmpty,
  postFunnel,
  runTag,
  sleep,
  stack,
  stopwatch,
  twoSidedFunnel,
  waitFor,
  waitForBothSides,
  type FunnelContact,
} from './helpers';

const OUTAGE_MS = 30_000;

/** Per-subject message counts of the run's stream, straight from JetStream. */
async function streamCounts(): Promise<Record<string, number>> {
  const nc = await connect({ servers: stack.natsUrl!, timeout: 5_000 });
  try {
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info(`${stack.natsPrefix ?? ''}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_'), {
      subjects_filter: '>',
    });
    return (info.state.subjects ?? {}) as Record<string, number>;
  } finally {
    await nc.close();
  }
}

const delta = (after: Record<string, number>, before: Record<string, number>, subject: string) =>
  (after[`${stack.natsPrefix ?? ''}${subject}`] ?? 0) - (before[`${stack.natsPrefix ?? ''}${subject}`] ?? 0);

it('loses nothing and applies each cross-channel effect once across a 30 s NATS outage', async () => {
  const done = stopwatch('NATS outage');
  const cookie = await adminCookie();
  const tag = runTag();
  const funnelId = `nats-out-${tag}`;
  const { emailDb, smsDb, eventsBefore } = await twoSidedFunnel(cookie, funnelId, `Outage ${tag}`);
  const before = await streamCounts();

  await stopProcess('nats');
  let restarted = false;
  try {
    // Both services notice and say so on /readyz (the gateway's internal port reports it per service).
    await waitFor(
      async () => {
        const r = await api('GET', '/readyz', { base: internalUrl });
        return (
          r.status === 503 &&
          r.body.services['svc-email'].checks?.nats === false &&
          r.body.services['svc-sms'].checks?.nats === false
        );
      },
      { what: 'the gateway /readyz to report NATS down for both services', timeoutMs: 15_000 },
    );

    const funnels: FunnelContact[] = [];
    const posted = { email: 0, sms: 0 };
    const refused: string[] = [];
    const post = async (side: 'email' | 'sms', body: unknown) => {
      const r = await api('POST', side === 'email' ? '/api/webhook' : '/api/sms/webhook', { body });
      posted[side]++;
      if (r.status !== 200) refused.push(`${side} ${r.status} ${JSON.stringify(r.body)}`);
    };
    const outageEnds = Date.now() + OUTAGE_MS;
    let n = 0;
    // Deliveries keep coming for the whole outage, a few at a time, as a funnel would send them.
    await inParallel(4, 4, async () => {
      while (Date.now() < outageEnds) {
        const f = funnelContact(tag, n++);
        funnels.push(f);
        await postFunnel(f, funnelId, post);
        await sleep(100);
      }
    });
    expect(refused).toEqual([]);
    console.log(
      `[faults] NATS outage: ${funnels.length} funnel contacts, ${posted.email} + ${posted.sms} deliveries during ${OUTAGE_MS / 1000} s`,
    );

    // Every delivery is stored, and waits in the outbox.
    expect((await emailDb.collection('webhook_events').countDocuments()) - eventsBefore.email).toBe(posted.email);
    expect((await smsDb.collection('sms_webhook_events').countDocuments()) - eventsBefore.sms).toBe(posted.sms);
    expect(await emailDb.collection('outbox').countDocuments()).toBeGreaterThan(0);
    expect(await smsDb.collection('outbox').countDocuments()).toBeGreaterThan(0);

    await startProcess('nats');
    restarted = true;
    const backAt = Date.now();

    await waitFor(() => outboxesEmpty(emailDb, smsDb), { what: 'both outboxes to be published', timeoutMs: 60_000 });
    const drainedMs = Date.now() - backAt;

    const purchasedOn = (side: 'email' | 'sms') => funnels.filter((f) => f.purchase === side).length;
    const onEmail = funnels.filter((f) => f.kind !== 'sms-only');
    const onSms = funnels.filter((f) => f.kind !== 'email-only');
    // Published exactly once each: the email side publishes a created contact and each purchase; the SMS side
    // every valid contact and purchase delivery. JetStream drops a re-publish with the same event id.
    const after = await streamCounts();
    expect({
      contactCreated: delta(after, before, 'funnel.contact.created'),
      purchaseCreated: delta(after, before, 'funnel.purchase.created'),
    }).toEqual({
      contactCreated: onEmail.length + onSms.length,
      purchaseCreated: purchasedOn('email') + purchasedOn('sms'),
    });

    // Every funnel contact exists once on each side (cross-channel creation for the one-sided ones), and
    // every purchase, posted to either side, has marked both sides' contact purchased.
    const settled = await waitForBothSides(emailDb, smsDb, funnels);
    expect(settled.email.twice).toEqual([]);
    expect(settled.sms.twice).toEqual([]);
    console.log(`[faults] NATS outage: outboxes drained ${(drainedMs / 1000).toFixed(1)} s after NATS came back`);
  } finally {
    if (!restarted) await startProcess('nats');
  }
  // Back to normal: the services report ready again.
  await waitFor(async () => (await api('GET', '/readyz')).status === 200, { what: '/readyz ready', timeoutMs: 20_000 });
  done();
}, 180_000);
