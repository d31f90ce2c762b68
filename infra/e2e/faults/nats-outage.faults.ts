// NATS stopped for 30 s while a funnel keeps posting to both webhook URLs, then started again: every delivery is
// stored, every outbox row is published once, and every cross-channel effect is applied exactly once.
import { connect } from 'nats';
import { startProcess, stopProcess } from '../stack';
import {
  adminCookie,
  api,
  expectStatus,
  inParallel,
  internalUrl,
  runTag,
  serviceDb,
  sleep,
  stack,
  stopwatch,
  waitFor,
} from './helpers';

const OUTAGE_MS = 30_000;

type Kind = 'both' | 'email-only' | 'sms-only';
interface Funnel {
  contactId: string;
  email: string;
  phone: string;
  kind: Kind;
  /** Where the purchase was posted, if any. */
  purchase: 'email' | 'sms' | null;
}

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
  expectStatus(
    await api('POST', '/api/webhook-integrations', {
      cookie,
      body: { name: `Outage ${tag}`, funnel_id: funnelId, reminder_delay: 720 },
    }),
    201,
  );
  expectStatus(
    await api('POST', '/api/sms-webhook-integrations', {
      cookie,
      body: { name: `Outage ${tag}`, funnel_id: funnelId, reminder_delay: 600, active: true },
    }),
    201,
  );
  const emailDb = await serviceDb('svc-email');
  const smsDb = await serviceDb('svc-sms');
  const eventsBefore = {
    email: await emailDb.collection('webhook_events').countDocuments(),
    sms: await smsDb.collection('sms_webhook_events').countDocuments(),
  };
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

    const funnels: Funnel[] = [];
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
        const i = n++;
        const kind: Kind = i % 5 === 3 ? 'email-only' : i % 5 === 4 ? 'sms-only' : 'both';
        const purchase = kind === 'both' ? (i % 5 === 0 ? 'email' : i % 5 === 1 ? 'sms' : null) : null;
        const f: Funnel = {
          contactId: `c-${tag}-${i}`,
          email: `buyer${i}.${tag}@example.com`,
          phone: `+1555${String(1_000_000 + i).slice(-7)}`,
          kind,
          purchase,
        };
        funnels.push(f);
        const contact = {
          event: 'contact_created',
          funnel_id: funnelId,
          contact: { id: f.contactId, email: f.email, phone: f.phone, first_name: 'Pat' },
        };
        if (kind !== 'sms-only') await post('email', contact);
        if (kind !== 'email-only') await post('sms', contact);
        if (purchase) {
          await post(purchase, {
            event: 'purchase_created',
            funnel_id: funnelId,
            contact: { id: f.contactId, email: f.email, phone: f.phone },
            purchase: { amount: 49, currency: 'USD' },
          });
        }
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

    await waitFor(
      async () =>
        (await emailDb.collection('outbox').countDocuments()) === 0 &&
        (await smsDb.collection('outbox').countDocuments()) === 0,
      { what: 'both outboxes to be published', timeoutMs: 60_000 },
    );
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
    const ids = funnels.map((f) => f.contactId);
    const expected = Object.fromEntries(funnels.map((f) => [f.contactId, f.purchase ? 'purchased' : 'pending']));
    const stateOf = async (coll: 'contacts' | 'sms_contacts') => {
      const db = coll === 'contacts' ? emailDb : smsDb;
      const rows = await db
        .collection(coll)
        .find({ contact_id: { $in: ids } }, { projection: { _id: 0, contact_id: 1, status: 1 } })
        .toArray();
      const seen: Record<string, string> = {};
      const twice: string[] = [];
      for (const r of rows) {
        if (seen[r.contact_id]) twice.push(r.contact_id);
        seen[r.contact_id] = r.status;
      }
      return { seen, twice };
    };
    const settled = await waitFor(
      async () => {
        const email = await stateOf('contacts');
        const sms = await stateOf('sms_contacts');
        const ok = ids.every((id) => email.seen[id] === expected[id] && sms.seen[id] === expected[id]);
        return ok ? { email, sms } : null;
      },
      { what: 'every contact on both sides with its purchase applied', timeoutMs: 30_000 },
    ).catch(async (err) => {
      const email = await stateOf('contacts');
      const sms = await stateOf('sms_contacts');
      const wrong = funnels
        .filter(
          (f) => email.seen[f.contactId] !== expected[f.contactId] || sms.seen[f.contactId] !== expected[f.contactId],
        )
        .slice(0, 10)
        .map(
          (f) =>
            `${f.contactId} (${f.kind}, purchase ${f.purchase}): email ${email.seen[f.contactId]}, sms ${sms.seen[f.contactId]}`,
        );
      throw new Error(`${(err as Error).message}\n${wrong.join('\n')}`);
    });
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
