// svc-sms's /metrics on its own port (SMS_METRICS_PORT): a webhook, the text it leads to (one 429 from Twilio
// first, then accepted) and the counters that describe them; the scrape-time gauges are there.
import { freePort, type ServiceProcess } from '@act/service-kit/testing';
import { scrapeMetrics, startFakeTwilio, type FakeTwilio, type Scrape } from '@act/testing';
import { configureSending, createFunnel, dropDb, dropStream, postContact, smsTestEnv, startSms, waitFor, type SmsTestEnv } from '../test/helpers';

let metricsUrl: string;
const sms = {} as { svc: ServiceProcess; twilio: FakeTwilio; t: SmsTestEnv };

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  sms.twilio = await startFakeTwilio();
  sms.t = smsTestEnv('metrics', sms.twilio, { SMS_METRICS_PORT: String(port), TWILIO_RETRY_DEADLINE_MS: '30000', TWILIO_RETRY_BASE_MS: '50' });
  sms.svc = await startSms(sms.t);
  await configureSending(sms.svc.url);
});
afterAll(async () => {
  await sms.svc?.stop();
  await sms.twilio?.stop();
  await dropStream(sms.t.natsPrefix);
  await dropDb(sms.t.db);
});

describe('svc-sms metrics', () => {
  it('counts the webhook, the provider calls and retries, and the text lateness', async () => {
    await createFunnel(sms.svc.url, 'metrics', [{ message: 'Hi {first_name}, your cart is waiting' }]);
    const before = await scrapeMetrics(metricsUrl);
    sms.twilio.failNext(429, 1);
    expect((await postContact(sms.svc.url, 'metrics', 'sm-1', '+15005550101')).status).toBe(200);

    let after: Scrape = before;
    await waitFor(
      async () => {
        after = await scrapeMetrics(metricsUrl);
        return after.value('act_reminder_lateness_seconds_count', { channel: 'sms' }) > 0;
      },
      15_000,
    );
    const created = { side: 'sms', source: 'generic', verification: 'unsigned', outcome: 'created' };
    expect(after.value('act_webhook_deliveries_total', created) - before.value('act_webhook_deliveries_total', created)).toBe(1);
    expect(after.value('act_provider_calls_total', { provider: 'twilio', outcome: 'retryable' })).toBe(1);
    expect(after.value('act_provider_calls_total', { provider: 'twilio', outcome: 'ok' })).toBe(1);
    expect(after.value('act_provider_retries_total', { provider: 'twilio' })).toBe(1);
    expect(after.value('act_provider_rate_limit_waits_total', { provider: 'twilio', reason: '429' })).toBe(1);
    expect(after.value('act_provider_rate_limit_wait_seconds_total', { provider: 'twilio', reason: '429' })).toBeGreaterThan(0);
    const webhook = { method: 'POST', route: '/api/sms/webhook', status: '200' };
    expect(after.value('act_http_requests_total', webhook) - before.value('act_http_requests_total', webhook)).toBe(1);
    expect(sms.twilio.messages.filter((m) => m.to === '+15005550101')).toHaveLength(1);
  }, 60_000);

  it('exposes the scrape-time gauges and the process metrics under service="svc-sms"', async () => {
    const m = await scrapeMetrics(metricsUrl);
    for (const name of ['act_outbox_waiting', 'act_outbox_oldest_age_seconds', 'act_consumer_pending', 'act_agenda_jobs_due', 'act_agenda_jobs_running', 'process_resident_memory_bytes'])
      expect({ name, exposed: m.has(name) }).toEqual({ name, exposed: true });
    expect(m.text).toMatch(/service="svc-sms"/);
  });
});
