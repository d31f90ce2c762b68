/** Twilio out of reach (DNS, refused, timeout): callers get a plain message; the transport's own text stays in the log. */
import { call, freePort, type ServiceProcess } from '@act/service-kit/testing';
import { dropDb, smsTestEnv, startSms } from '../test/helpers';
import { toProviderError } from './twilio';
import { TWILIO_UNREACHABLE } from './types';

jest.setTimeout(120_000);

describe('toProviderError', () => {
  it("keeps Twilio's own refusals (status + numeric code) and hides the transport's text", () => {
    const refusal = toProviderError(Object.assign(new Error('Authenticate'), { status: 401, code: 20003 }));
    expect([refusal.message, refusal.code, refusal.status, refusal.detail]).toEqual(['Authenticate', 20003, 401, undefined]);
    const dns = toProviderError(Object.assign(new Error('getaddrinfo ENOTFOUND api.twilio.com'), { code: 'ENOTFOUND' }));
    expect([dns.message, dns.code, dns.detail]).toEqual([TWILIO_UNREACHABLE, 'ENOTFOUND', 'getaddrinfo ENOTFOUND api.twilio.com']);
  });
});

describe('with Twilio unreachable', () => {
  const t = smsTestEnv('unreach', null);
  let svc: ServiceProcess;
  beforeAll(async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    svc = await startSms(t, {
      TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_BASE_URL: dead,
      TWILIO_RETRY_DEADLINE_MS: '300',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await dropDb(t.db);
  });

  it('answers test-connection, messaging services and a test SMS without naming hosts, ports or error codes', async () => {
    await call(svc.url, 'POST', '/api/twilio/config', { body: { phone_number: '+15005550006' } });
    const answers = [
      await call(svc.url, 'POST', '/api/twilio/test-connection'),
      await call(svc.url, 'GET', '/api/twilio/messaging-services'),
      await call(svc.url, 'POST', '/api/twilio/test-sms', { body: { test_phone: '+15552070009', test_message: 'Hi' } }),
    ];
    for (const r of answers) {
      expect(r.status).toBe(502);
      expect(r.text).toContain(TWILIO_UNREACHABLE);
      expect(r.text).not.toMatch(/ECONNREFUSED|ENOTFOUND|127\.0\.0\.1|getaddrinfo|connect /);
    }
    // The operator's log has the cause.
    expect(svc.output()).toMatch(/Twilio unreachable while testing the connection/);
  });
});
