import auth from '@act/contracts/openapi/svc-auth.json';
import email from '@act/contracts/openapi/svc-email.json';
import sms from '@act/contracts/openapi/svc-sms.json';
import type { RunningGateway } from './app';
import { deadUrl, fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

const PARTS = { 'svc-auth': auth, 'svc-email': email, 'svc-sms': sms } as const;

/** A service that answers its part at /openapi.json and echoes everything else. */
const serving = (service: keyof typeof PARTS) =>
  fakeUpstream(service, (req, res) => {
    if (req.url !== '/openapi.json') return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(PARTS[service]));
    return true;
  });

let upstreams: FakeUpstream[] = [];
let gw: RunningGateway | null = null;
afterEach(async () => {
  await gw?.close();
  await Promise.all(upstreams.map((u) => u.close()));
  gw = null;
  upstreams = [];
});

describe('GET /api/openapi.json', () => {
  it('merges the three services\' parts, asking each with the gateway\'s identity, without a session', async () => {
    upstreams = await Promise.all([serving('svc-auth'), serving('svc-email'), serving('svc-sms')]);
    const [a, e, s] = upstreams;
    gw = await startTestGateway(testConfig({ 'svc-auth': a!.url, 'svc-email': e!.url, 'svc-sms': s!.url }));
    const res = await get(`${gw.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/login', '/api/webhook', '/api/twilio/webhooks']));
    expect(Object.keys(res.body.paths)).toHaveLength(Object.keys(auth.paths).length + Object.keys(email.paths).length + Object.keys(sms.paths).length);
    expect(res.body.tags[0]).toEqual({ name: 'Webhooks' });
    for (const u of upstreams) {
      expect(u.requests.map((r) => r.url)).toEqual(['/openapi.json']);
      expect(u.requests[0]!.identity).toMatchObject({ user: null });
    }
    // Cached: a second call asks no service.
    expect((await get(`${gw.url}/api/openapi.json`)).status).toBe(200);
    expect(upstreams.map((u) => u.requests.length)).toEqual([1, 1, 1]);
  });

  it('answers 503 when a service does not answer, and 405 to anything but GET and HEAD', async () => {
    upstreams = await Promise.all([serving('svc-auth'), serving('svc-email')]);
    const [a, e] = upstreams;
    gw = await startTestGateway(testConfig({ 'svc-auth': a!.url, 'svc-email': e!.url, 'svc-sms': await deadUrl() }));
    const res = await get(`${gw.url}/api/openapi.json`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'The API document is not available: a service did not answer' });
    const post = await get(`${gw.url}/api/openapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
