import { envInt, runService } from '@act/service-kit';
import { loadConfig } from './config';
import { buildEmailService } from './app';
import { startAgendaJobs } from './reminders/agenda';

const config = loadConfig();

void runService({
  name: 'svc-email',
  defaultPort: envInt('EMAIL_PORT', 4002),
  defaultDb: 'act_email',
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
          graceMs: envInt('REMINDER_JOB_GRACE_MS', 15_000),
        }),
    }),
}).catch((err) => {
  console.error('svc-email failed to start', err);
  process.exit(1);
});
