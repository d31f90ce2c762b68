// The MongoDB stand-in stopped and started again on the same port: the gateway's /readyz reports the services
// not ready meanwhile (the processes stay up), the services reconnect by themselves, /readyz is ready again, and
// writes work. The stand-in keeps its data in memory, so the databases are empty after the restart (a real
// MongoDB keeps them): at the end the services are restarted so they seed again (admin, default integration,
// indexes, Agenda's sweep) and the next tests find the stack as before.
import { startProcess, stopProcess } from '../stack';
import { adminCookie, api, closeDb, internalUrl, expectStatus, runTag, serviceDb, stack, stopwatch, waitFor } from './helpers';

const SERVICES = ['svc-auth', 'svc-email', 'svc-sms'] as const;

// The per-service detail is on the gateway's internal port; the public /readyz says only ready or not.
const mongoChecks = async () => {
  const r = await api('GET', '/readyz', { timeoutMs: 10_000, base: internalUrl });
  const open = await api('GET', '/readyz', { timeoutMs: 10_000 });
  expect(open.status).toBe(r.status);
  expect(Object.keys(open.body as object)).toEqual(['status']);
  return { status: r.status, mongo: SERVICES.map((s) => r.body?.services?.[s]?.checks?.mongo) };
};

it('services report MongoDB down on /readyz, reconnect by themselves when it is back, and write again', async () => {
  const done = stopwatch('MongoDB restart');
  await waitFor(async () => (await mongoChecks()).status === 200, { what: '/readyz ready before the test' });
  await closeDb();

  await stopProcess('mongo');
  let started = false;
  try {
    const stoppedAt = Date.now();
    await waitFor(
      async () => {
        const r = await mongoChecks();
        return r.status === 503 && r.mongo.every((m) => m === false);
      },
      { what: 'the gateway /readyz to report MongoDB down for every service', timeoutMs: 30_000 },
    );
    console.log(`[faults] MongoDB down: /readyz reported it after ${((Date.now() - stoppedAt) / 1000).toFixed(1)} s`);
    // Down, not dead: every process still answers /healthz.
    for (const name of SERVICES) {
      const res = await fetch(`http://127.0.0.1:${stack.ports[name]}/healthz`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }

    await startProcess('mongo');
    started = true;
    const backAt = Date.now();
    await waitFor(async () => (await mongoChecks()).status === 200, {
      what: 'the services to reconnect (/readyz ready)',
      timeoutMs: 60_000,
    });
    console.log(`[faults] MongoDB back: services ready ${((Date.now() - backAt) / 1000).toFixed(1)} s after its start`);

    // Writes work on the reconnected connections (public calls: the sessions were in the lost memory).
    const tag = runTag();
    expectStatus(await api('POST', '/api/webhook', { body: { event: 'handshake', tag } }), 200);
    expectStatus(
      await api('POST', '/api/sms/webhook', {
        body: {
          event: 'contact_created',
          funnel_id: `mongo-${tag}`,
          contact: { id: `m-${tag}`, phone: '+15557770102' },
        },
      }),
      202,
    );
    const email = await serviceDb('svc-email');
    const sms = await serviceDb('svc-sms');
    expect(await email.collection('webhook_events').countDocuments({ payload: { $regex: tag } })).toBe(1);
    expect(await sms.collection('sms_webhook_events').countDocuments({ payload: { $regex: tag } })).toBe(1);
  } finally {
    if (!started) await startProcess('mongo');
    // Seed again what the in-memory stand-in lost (admin user, default integration, indexes, Agenda's sweep).
    // The rows the old processes wrote after the restart go too: they carry ids from id blocks reserved before
    // it, on counters the new database no longer has, so the restarted services would hand the same ids out
    // again (a webhook answered 409 on a later test's 900th delivery). A real MongoDB keeps data and counters.
    await Promise.all(SERVICES.map((name) => stopProcess(name)));
    for (const name of SERVICES) await (await serviceDb(name)).dropDatabase();
    await closeDb();
    await Promise.all(SERVICES.map((name) => startProcess(name)));
  }
  // The stack is usable as before: the admin signs in and a signed-in write works.
  const cookie = await adminCookie();
  expectStatus(
    await api('POST', '/api/sms-campaigns', {
      cookie,
      body: { name: `After restart ${runTag()}`, integration_id: null, active: true },
    }),
    201,
  );
  done();
}, 180_000);
