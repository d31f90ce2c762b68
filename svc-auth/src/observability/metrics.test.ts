// svc-auth's /metrics on its own port (AUTH_METRICS_PORT): sign-ins and refusals by route and status.
import { call, freePort, type ServiceProcess } from '@act/service-kit/testing';
import { scrapeMetrics } from '@act/testing';
import { ADMIN_PASSWORD, freshAddress, login, startAuth } from '../testing';

let svc: ServiceProcess;
let metricsUrl: string;
beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  svc = await startAuth('metrics', { AUTH_METRICS_PORT: String(port) });
});
afterAll(() => svc?.stop());

it('counts sign-ins and refused sign-ins under POST /api/login', async () => {
  const before = await scrapeMetrics(metricsUrl);
  await login(svc.url, 'admin', ADMIN_PASSWORD);
  const wrong = await call(svc.url, 'POST', '/api/login', { user: null, body: { username: 'admin', password: 'nope-nope' }, headers: { 'x-forwarded-for': freshAddress() } });
  expect(wrong.status).toBe(401);
  const after = await scrapeMetrics(metricsUrl);
  const delta = (status: string) =>
    after.value('act_http_requests_total', { method: 'POST', route: '/api/login', status }) - before.value('act_http_requests_total', { method: 'POST', route: '/api/login', status });
  expect([delta('200'), delta('401')]).toEqual([1, 1]);
  expect(after.text).toMatch(/service="svc-auth"/);
  expect(after.has('process_cpu_seconds_total')).toBe(true);
});
