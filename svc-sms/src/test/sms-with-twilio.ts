import type { ServiceProcess } from '@act/service-kit/testing';
import { startFakeTwilio, type FakeTwilio } from '@act/testing';
import { configureSending, dropDb, dropStream, smsTestEnv, startSms, type SmsTestEnv } from './helpers';

/** The file's service, its fake Twilio and its environment: set by the time the file's tests run. */
export interface SmsWithTwilio {
  svc: ServiceProcess;
  twilio: FakeTwilio;
  t: SmsTestEnv;
}

/**
 * Registers the file's beforeAll / afterAll: a fake Twilio, the real service (tsx child process) on its own
 * database and NATS prefix, and (unless `sending: false`) blackout off with a sender set; afterwards everything
 * stopped and the file's stream and database dropped.
 */
export function useSmsWithTwilio(
  label: string,
  opts: { env?: Record<string, string>; sending?: Record<string, unknown> | false } = {},
): SmsWithTwilio {
  const sms = {} as SmsWithTwilio;
  beforeAll(async () => {
    sms.twilio = await startFakeTwilio();
    sms.t = smsTestEnv(label, sms.twilio, opts.env);
    sms.svc = await startSms(sms.t);
    if (opts.sending !== false) await configureSending(sms.svc.url, opts.sending);
  });
  afterAll(async () => {
    await sms.svc?.stop();
    await sms.twilio?.stop();
    await dropStream(sms.t.natsPrefix);
    await dropDb(sms.t.db);
  });
  return sms;
}
