// The gateway's /metrics: on the internal port only (GATEWAY_METRICS_PORT), counting proxied requests by the route
// table's prefix and status, never by raw path.
import { freePort } from '@act/service-kit/testing';
import { scrapeMetrics } from '@act/testing';
import type { RunningGateway } from './app';
import { fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

let upstreams: FakeUpstream[];
let gw: RunningGateway;

beforeAll(async () => {
  upstreams = await Promise.all(['svc-auth', 'svc-email', 'svc-sms'].map((s) => fakeUpstream(s)));
  const [auth, email, sms] = upstreams.map((u) => u.url) as [string, string, string];
  gw = await startTestGateway(testConfig({ 'svc-auth': auth, 'svc-email': email, 'svc-sms': sms }, { internalPort: await freePort() }));
});
afterAll(async () => {
  await gw?.close();
  await Promise.all(upstreams.map((u) => u.close()));
});

describe('gateway metrics', () => {
  it('counts proxied requests per route prefix and status on the internal port', async () => {
    const before = await scrapeMetrics(gw.internalUrl!);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw.url}/api/webhook/i/key-${i}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
    }
    expect((await fetch(`${gw.url}/api/webhook`, { method: 'PROPFIND' })).status).toBe(405);
    const after = await scrapeMetrics(gw.internalUrl!);
    const ok = { method: 'POST', route: '/api/webhook', status: '200' };
    expect(after.value('act_http_requests_total', ok) - before.value('act_http_requests_total', ok)).toBe(3);
    const refused = { method: 'OTHER', route: '/api/webhook', status: '405' };
    expect(after.value('act_http_requests_total', refused) - before.value('act_http_requests_total', refused)).toBe(1);
    expect(after.value('act_http_request_duration_seconds_count', ok) - before.value('act_http_request_duration_seconds_count', ok)).toBe(3);
    expect(after.text).not.toContain('key-1');
  });

  it('is not served on the public port', async () => {
    const res = await get(`${gw.url}/metrics`);
    expect(res.text).not.toContain('act_http_requests_total');
  });
});
