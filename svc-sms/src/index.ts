import { envInt, loadSettings, runService } from '@act/service-kit';
import { SMS_TEST_SWITCHES, smsSettings } from './config';
import { buildSmsService } from './service';
import openapi from '@act/contracts/openapi/svc-sms.json';

loadSettings('svc-sms', smsSettings, { switches: SMS_TEST_SWITCHES });

// svc-sms: SMS integrations, campaigns, contacts and reminder sequences (Twilio), port 4003, database act_sms.
void runService({
  name: 'svc-sms',
  openapi,
  defaultPort: envInt('SMS_PORT', 4003),
  defaultDb: 'act_sms',
  metricsPortEnv: 'SMS_METRICS_PORT',
  build: buildSmsService,
}).catch((err) => {
  console.error('svc-sms failed to start', err);
  process.exit(1);
});
