import { AUDIT_RETENTION_DAYS_DEFAULT } from '@act/contracts/src/audit';
import { int, serviceSettings, str } from '@act/service-kit';

/** svc-auth's settings: the services' shared ones and its own (sign-in throttling, sessions, the audit log). */
export const authSettings = {
  ...serviceSettings,
  AUTH_PORT: int({ default: 4001, desc: 'port when PORT is unset' }),
  AUTH_METRICS_PORT: int({ default: 0, desc: 'Prometheus port; 0 = none' }),
  SESSION_SECRET: str({ devDefault: 'dev-only-session-secret-change-me', desc: 'keys of the session cookie, comma-separated; required in production' }),
  ADMIN_PASSWORD: str({ default: undefined, desc: "the admin account's first password" }),
  LOGIN_MAX_FAILURES: int({ default: 5, min: 1 }),
  LOGIN_WINDOW_SEC: int({ default: 60, min: 1 }),
  LOGIN_SLOW_AFTER: int({ default: 5, min: 1 }),
  LOGIN_SLOW_WINDOW_SEC: int({ default: 900, min: 1 }),
  LOGIN_MAX_DELAY_MS: int({ default: 4_000 }),
  AUDIT_RETENTION_DAYS: int({ default: AUDIT_RETENTION_DAYS_DEFAULT, min: 1 }),
};
