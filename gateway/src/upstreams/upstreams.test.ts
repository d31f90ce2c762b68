// Several instances per service behind the gateway: round-robin, an instance whose connection fails taken out
// and the request sent to another (reads and the idempotent webhook POSTs), back in rotation once its /readyz
// answers again; the session lookup also fails over.
import { freePort } from '@act/service-kit/testing';
import type { RunningGateway } from '../app';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from '../testing';

const servicesOf = (requests: { url: string }[]) => requests.filter((r) => !r.url.startsWith('/readyz')).length;
const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('several instances per service', () => {
  let auth: FakeUpstream[];
  let email: FakeUpstream[];
  let sms: FakeUpstream;
  let gw: RunningGateway;
  let emailPorts: number[];

  beforeEach(async () => {
    auth = await Promise.all([fakeUpstream('svc-auth'), fakeUpstream('svc-auth')]);
    email = await Promise.all([fakeUpstream('svc-email'), fakeUpstream('svc-email')]);
    emailPorts = email.map((e) => Number(new URL(e.url).port));
    sms = await fakeUpstream('svc-sms');
    gw = await startTestGateway(
      testConfig(
        { 'svc-auth': auth.map((a) => a.url), 'svc-email': email.map((e) => e.url), 'svc-sms': sms.url },
        { internalPort: await freePort(), healthCheckMs: 100 },
      ),
    );
  });
  afterEach(async () => {
    await gw?.close();
    await Promise.all([...auth, ...email, sms].map((u) => u.close().catch(() => undefined)));
  });

  it('spreads requests over the instances in turn', async () => {
    for (let i = 0; i < 10; i++) expect((await post(`${gw.url}/api/webhook`, { n: i })).status).toBe(200);
    expect(email.map((e) => servicesOf(e.requests))).toEqual([5, 5]);
  });

  it('sends webhooks and reads to the live instance when one is killed, losing none, and takes it out of rotation', async () => {
    await email[0]!.close();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`${gw.url}/api/webhook`, { n: i }).then((r) => r.status)));
    expect(answers).toEqual(Array(20).fill(200));
    // Every body arrived whole, each exactly once, on the survivor.
    const bodies = email[1]!.requests.filter((r) => r.url === '/api/webhook').map((r) => (JSON.parse(r.body) as { n: number }).n);
    expect(bodies.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await get(`${gw.url}/api/webhook-events`)).status).toBe(200);
    const detail = await get(`${gw.internalUrl}/readyz`);
    expect(detail.body.services['svc-email']).toMatchObject({
      ready: true,
      instances: [
        { url: email[0]!.url, ready: false, error: 'ECONNREFUSED' },
        { url: email[1]!.url, ready: true },
      ],
    });
  });

  it('does not send a non-idempotent request twice: a failed one is refused, the next goes to a live instance', async () => {
    await email[0]!.close();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${gw.url}/api/contacts/mark-purchased`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: gw.url },
        body: JSON.stringify({ contact_id: `c-${i}` }),
      });
      statuses.push(res.status);
    }
    // At most one reaches the dead instance (503, not sent again: it may have been applied); the dead instance is
    // out of rotation from then on.
    expect(statuses.filter((s) => s === 503).length).toBeLessThanOrEqual(1);
    expect(statuses.slice(statuses.indexOf(503) + 1).every((s) => s === 200)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(email[1]!.requests.filter((r) => r.url === '/api/contacts/mark-purchased')).toHaveLength(statuses.filter((s) => s === 200).length);
  });

  it('puts an instance back once its /readyz answers again', async () => {
    await email[0]!.close();
    for (let i = 0; i < 4; i++) await post(`${gw.url}/api/webhook`, { n: i });
    email[0] = await fakeUpstream('svc-email', undefined, emailPorts[0]);
    // Back in rotation once a health check (every 100 ms here) saw it answer: waited for in the gateway's own
    // readiness detail rather than by sleeping through "a few" checks a loaded machine may not have run yet.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const detail = await get(`${gw.internalUrl}/readyz`);
      const instances = detail.body.services['svc-email'].instances as { url: string; ready: boolean }[];
      if (instances.find((i) => i.url === email[0]!.url)?.ready) break;
      if (Date.now() > deadline) throw new Error(`the instance is still out of rotation: ${JSON.stringify(instances)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    for (let i = 0; i < 6; i++) expect((await post(`${gw.url}/api/webhook`, { n: i })).status).toBe(200);
    expect(servicesOf(email[0]!.requests)).toBe(3);
  });

  it('asks another svc-auth instance for the session when one is down', async () => {
    await auth[0]!.close();
    for (let i = 0; i < 4; i++) {
      const res = await get(`${gw.url}/api/contacts`, { headers: { cookie: `act.sid=s${i}; act.sid.sig=x${i}` } });
      expect(res.status).toBe(200);
    }
    expect(auth[1]!.requests.filter((r) => r.url === '/internal/session').length).toBe(4);
  });
});
