import { envInt, loadSettings, runService } from '@act/service-kit';
import { buildAuthService } from './app';
import openapi from '@act/contracts/openapi/svc-auth.json';
import { authSettings } from './config';

loadSettings('svc-auth', authSettings);

runService({
  name: 'svc-auth',
  openapi,
  defaultPort: envInt('AUTH_PORT', 4001),
  defaultDb: 'act_auth',
  metricsPortEnv: 'AUTH_METRICS_PORT',
  build: buildAuthService,
}).catch((err) => {
  console.error('svc-auth failed to start', err);
  process.exit(1);
});
