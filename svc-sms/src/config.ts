import { int, secretsKeySetting, senderSettings, serviceSettings, str, urls } from '@act/service-kit';

/** svc-sms's settings: the services' shared ones and its own (read into SmsSettings by settings.ts). */
export const smsSettings = {
  ...serviceSettings,
  ...secretsKeySetting,
  ...senderSettings,
  SMS_PORT: int({ default: 4003, desc: 'port when PORT is unset' }),
  SMS_METRICS_PORT: int({ default: 0 }),
  SMS_DELAY_UNIT_MS: int({ default: 60_000, min: 1, desc: 'test-only' }),
  SMS_CLOCK_OFFSET_MS: int({ default: 0, desc: 'test-only' }),
  SMS_DUE_SCAN_MS: int({ default: 15_000 }),
  SMS_DUE_TICK_MS: int({ default: 250, min: 1 }),
  SMS_DUE_BURST: int({ default: 100, min: 1 }),
  SMS_DUE_BURSTS: int({ default: 8, min: 1 }),
  SMS_RULES_CACHE_MS: int({ default: 250 }),
  SMS_INTEGRATION_CACHE_MS: int({ default: 1_000 }),
  SMS_AGENDA_PROCESS_EVERY_MS: int({ default: 30_000, min: 1 }),
  SMS_SWEEP_EVERY_MS: int({ default: 60_000, min: 1 }),
  SMS_LIST_LIMIT: int({ default: 5_000, min: 1 }),
  SMS_STEP_LEASE_MS: int({ default: 300_000, min: 1 }),
  SMS_SEND_IN_FLIGHT_MS: int({ default: undefined, desc: 'default: the lease plus one call timeout' }),
  WEBHOOK_TEST_BASE_URL: urls(['http', 'https'], { default: undefined }),
  TWILIO_ACCOUNT_SID: str({ default: undefined }),
  TWILIO_AUTH_TOKEN: str({ default: undefined }),
  TWILIO_BASE_URL: urls(['http', 'https'], { default: undefined, desc: 'test-only' }),
  TWILIO_RETRY_DEADLINE_MS: int({ default: 60_000 }),
  TWILIO_RETRY_BASE_MS: int({ default: 500, min: 1 }),
  TWILIO_TIMEOUT_MS: int({ default: undefined, min: 1 }),
  TWILIO_MAX_MPS: int({ default: undefined }),
};
export const SMS_TEST_SWITCHES = ['SMS_DELAY_UNIT_MS', 'SMS_CLOCK_OFFSET_MS', 'TWILIO_BASE_URL'] as const;
