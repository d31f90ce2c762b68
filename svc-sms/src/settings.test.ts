import { readSettings } from './settings';
import { TWILIO_CALL_TIMEOUT_MS } from './provider/twilio';

describe('readSettings: the Twilio call timeout', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('defaults to 15 s, and a claim counts as under way for a lease plus one call', () => {
    delete process.env.TWILIO_TIMEOUT_MS;
    delete process.env.SMS_SEND_IN_FLIGHT_MS;
    process.env.SMS_STEP_LEASE_MS = '60000';
    const s = readSettings();
    expect(s.twilio.timeoutMs).toBe(TWILIO_CALL_TIMEOUT_MS);
    expect(s.sendInFlightMs).toBe(60_000 + TWILIO_CALL_TIMEOUT_MS);
  });

  it('TWILIO_TIMEOUT_MS shortens each call and the in-flight window with it', () => {
    process.env.TWILIO_TIMEOUT_MS = '2000';
    process.env.SMS_STEP_LEASE_MS = '60000';
    delete process.env.SMS_SEND_IN_FLIGHT_MS;
    const s = readSettings();
    expect(s.twilio.timeoutMs).toBe(2000);
    expect(s.sendInFlightMs).toBe(62_000);
  });
});
