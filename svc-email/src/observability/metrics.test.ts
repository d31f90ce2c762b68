// svc-email's /metrics on its own port (EMAIL_METRICS_PORT): after a webhook and the reminder it schedules, the
// counters that describe them moved; the gauges read at scrape time (outbox, consumer lag, due flow steps) are there.
import { freePort } from '@act/service-kit/testing';
import { scrapeMetrics, type Scrape } from '@act/testing';
import { HOOK_TIMEOUT_MS, contactCreated, dropDb, startEmail, waitFor, type EmailUnderTest } from '../test/helpers';

let email: EmailUnderTest;
let metricsUrl: string;
beforeAll(async () => {
  const port = await freePort();
  email = await startEmail('metrics', { EMAIL_METRICS_PORT: String(port) });
  metricsUrl = `http://127.0.0.1:${port}`;
  await email.api('POST', '/api/webhook-integrations', { body: { name: 'Metrics', funnel_id: 'metrics', reminder_delay: 1 } });
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const webhook = { method: 'POST', route: '/api/webhook', status: '200' };
const created = { side: 'email', source: 'generic', verification: 'unsigned', outcome: 'created' };

describe('svc-email metrics', () => {
  it('counts the webhook, its request and the reminder it led to', async () => {
    const before = await scrapeMetrics(metricsUrl);
    const res = await email.api('POST', '/api/webhook', { body: contactCreated('m-1', 'metrics@example.com', 'metrics'), user: null });
    expect(res.status).toBe(200);
    const bad = await email.api('POST', '/api/webhook', { body: { event: 'contact_created' }, user: null });
    expect(bad.status).toBe(400);

    let after: Scrape = before;
    await waitFor(
      async () => {
        after = await scrapeMetrics(metricsUrl);
        return after.value('act_reminder_lateness_seconds_count', { channel: 'email' }) > before.value('act_reminder_lateness_seconds_count', { channel: 'email' });
      },
      { timeoutMs: 10_000, what: 'the reminder in act_reminder_lateness_seconds' },
    );
    expect(after.value('act_webhook_deliveries_total', created) - before.value('act_webhook_deliveries_total', created)).toBe(1);
    const invalid = { side: 'email', outcome: 'invalid' };
    expect(after.value('act_webhook_deliveries_total', invalid) - before.value('act_webhook_deliveries_total', invalid)).toBe(1);
    expect(after.value('act_http_requests_total', webhook) - before.value('act_http_requests_total', webhook)).toBe(1);
    const refused = { ...webhook, status: '400' };
    expect(after.value('act_http_requests_total', refused) - before.value('act_http_requests_total', refused)).toBe(1);
    expect(after.value('act_http_request_duration_seconds_count', webhook)).toBeGreaterThanOrEqual(1);
    // Due one second after the webhook, handed over by the 200 ms due poller: well under the 30 s bucket.
    expect(after.value('act_reminder_lateness_seconds_bucket', { channel: 'email', le: '30' })).toBeGreaterThanOrEqual(1);
    // Paths with ids are counted under their route pattern, never one series per id.
    await email.api('GET', '/api/contacts/999999');
    const routes = (await scrapeMetrics(metricsUrl)).text.match(/route="[^"]*"/g) ?? [];
    expect(routes.filter((r) => r.includes('999999'))).toEqual([]);
  });

  it('exposes the scrape-time gauges and the process metrics under service="svc-email"', async () => {
    const m = await scrapeMetrics(metricsUrl);
    for (const name of ['act_outbox_waiting', 'act_outbox_oldest_age_seconds', 'act_consumer_pending', 'act_flow_steps_due', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds'])
      expect({ name, exposed: m.has(name) }).toEqual({ name, exposed: true });
    expect(m.text).toMatch(/act_flow_steps_due\{[^}]*collection="email_sequence_steps"/);
    expect(m.text).toMatch(/act_consumer_pending\{[^}]*consumer="[^"]+"/);
    expect(m.text).toMatch(/service="svc-email"/);
    expect(m.value('act_outbox_waiting')).toBeGreaterThanOrEqual(0);
  });

  it('answers only GET /metrics on the metrics port, and /metrics is not on the API port', async () => {
    expect((await fetch(`${metricsUrl}/api/contacts`)).status).toBe(404);
    expect((await email.api('GET', '/metrics')).status).toBe(404);
  });
});
