import { envInt, type ServiceDeps, type ServiceParts } from '@act/service-kit';
import { AUDIT_RETENTION_DAYS_DEFAULT } from '@act/contracts/src/audit';
import { staffTimeline } from './timeline/service';
import { staffTimelineRouter } from './timeline/routes';
import { auditCollection, auditRouter, backfillMentions, createAuditLog, ensureAuditIndexes, startAuditConsumer } from './audit';
import { authRouter } from './auth/routes';
import { createPrivacyRequests, privacyRouter, startPrivacyConsumer } from './privacy';
import { createAuthService } from './auth/service';
import { profileRouter } from './profile/routes';
import { createProfileService } from './profile/service';
import { createSessionStore, createSessionsService, sessionKeys, sessionMiddleware, sessionsRouter } from './sessions';
import { sessionModel } from './sessions/model';
import { createUsersService, userModel, usersRouter } from './users';

/** Wires svc-auth's features onto the service-kit app. */
export async function buildAuthService({ conn, app, logger, bus, outbox }: ServiceDeps): Promise<ServiceParts> {
  // Indexes first: the unique username index must exist before the bootstrap admin is created.
  await Promise.all([userModel(conn).init(), sessionModel(conn).init()]);

  const store = createSessionStore(conn);
  const sessions = createSessionsService(conn, store);
  const users = createUsersService(conn, store);
  const profile = createProfileService(conn, store);
  const auth = createAuthService(conn, {
    maxFailures: envInt('LOGIN_MAX_FAILURES', 5),
    windowSec: envInt('LOGIN_WINDOW_SEC', 60),
    slowAfter: envInt('LOGIN_SLOW_AFTER', 5),
    slowWindowSec: envInt('LOGIN_SLOW_WINDOW_SEC', 900),
    maxDelayMs: envInt('LOGIN_MAX_DELAY_MS', 4_000),
  });

  await users.backfillUsernameKeys(logger);
  await users.ensureBootstrapAdmin(process.env.ADMIN_PASSWORD, logger);

  const auditColl = auditCollection(conn);
  const auditRetentionDays = envInt('AUDIT_RETENTION_DAYS', AUDIT_RETENTION_DAYS_DEFAULT);
  await ensureAuditIndexes(auditColl, auditRetentionDays);
  // Records kept from before the mentions index get their keys in the background (an erase reads them meanwhile).
  void backfillMentions(auditColl)
    .then((n) => n > 0 && logger.info({ records: n }, 'audit records given their mention keys'))
    .catch((err: unknown) => logger.warn({ err }, 'audit mention keys backfill failed; retried at the next start'));
  const auditLog = createAuditLog(auditColl, auditRetentionDays);
  let auditConsumer: { stop(): void } | null = null;
  const privacy = createPrivacyRequests(conn, outbox, logger);
  await privacy.init();
  let privacyConsumer: { stop(): void } | null = null;

  app.use(sessionMiddleware(app, store, sessionKeys(logger)));
  return {
    routers: [authRouter(auth, sessions), profileRouter(profile), usersRouter(users), sessionsRouter(sessions), auditRouter(auditLog), privacyRouter(privacy), staffTimelineRouter(staffTimeline(auditColl))],
    start: async () => {
      auditConsumer = startAuditConsumer({ conn, bus, logger, log: auditLog });
      privacyConsumer = startPrivacyConsumer({ conn, bus, logger, privacy });
    },
    stop: async () => {
      auditConsumer?.stop();
      privacyConsumer?.stop();
    },
  };
}
