import { envInt, loadSettings, runService } from '@act/service-kit';
import { EMAIL_TEST_SWITCHES, emailSettings, loadConfig } from './config';
import { buildEmailService } from './app';
import openapi from '@act/contracts/openapi/svc-email.json';

loadSettings('svc-email', emailSettings, { switches: EMAIL_TEST_SWITCHES });
const config = loadConfig();

void runService({
  name: 'svc-email',
  openapi,
  defaultPort: envInt('EMAIL_PORT', 4002),
  defaultDb: 'act_email',
  metricsPortEnv: 'EMAIL_METRICS_PORT',
  build: (deps) => buildEmailService(deps, { config }),
}).catch((err) => {
  console.error('svc-email failed to start', err);
  process.exit(1);
});
