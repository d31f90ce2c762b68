import { envInt, loadSettings, runService } from '@act/service-kit';
import { EMAIL_TEST_SWITCHES, emailSettings, loadConfig } from './config';
import { buildEmailService } from './app';
import { startAgendaJobs } from './reminders/agenda';
import openapi from '@act/contracts/openapi/svc-email.json';

loadSettings('svc-email', emailSettings, { switches: EMAIL_TEST_SWITCHES });
const config = loadConfig();

void runService({
  name: 'svc-email',
  openapi,
  defaultPort: envInt('EMAIL_PORT', 4002),
  defaultDb: 'act_email',
  metricsPortEnv: 'EMAIL_METRICS_PORT',
  build: (deps) =>
    buildEmailService(deps, {
      config,
      startJobs: (reminders) =>
        startAgendaJobs({
          conn: deps.conn,
          reminders,
          logger: deps.logger,
          processEveryMs: config.agendaProcessEveryMs,
          sweepIntervalMs: config.sweepIntervalMs,
          // Long: under a burst the due ticker may run late, and jobs coming due meanwhile made Agenda lock them one
          // by one, slowing the ticker further.
          graceMs: envInt('REMINDER_JOB_GRACE_MS', 10 * 60_000),
        }),
    }),
}).catch((err) => {
  console.error('svc-email failed to start', err);
  process.exit(1);
});
