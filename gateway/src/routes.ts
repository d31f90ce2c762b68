/**
 * The whole /api prefix table: which service answers a path, and whether the gateway resolves the session
 * for it. Longest prefix wins; a prefix matches itself and what follows a `/` (so `/api/user` never takes
 * `/api/users`), except prefixes ending in `-`, which match anything after the dash (`/api/sms-campaigns`).
 * Matching ignores case, as the services' routers do.
 */
export type ServiceName = 'svc-auth' | 'svc-email' | 'svc-sms';

/**
 * `session`: ask svc-auth who the cookie belongs to and forward that identity.
 * `anonymous`: forward the identity "nobody" without asking: public calls, and svc-auth's own session calls,
 * which read the cookie themselves. The webhook paths must stay here: they carry the benchmark's load.
 */
export type Access = 'session' | 'anonymous';

export interface Route {
  prefix: string;
  service: ServiceName;
  access: Access;
  /** Called by senders, Twilio and mail clients, never with our cookie: no browser (CSRF) checks, their own rules. */
  public?: true;
  /**
   * A POST here may be sent to a second instance when the first one's connection fails (its body is buffered):
   * the handlers make a repeat harmless (webhooks upsert by contact and skip a delivery id seen before; callbacks
   * set a status; an unsubscribe adds to a set). Reads are always retried.
   */
  retry?: true;
}

export const ROUTES: readonly Route[] = [
  // svc-auth: users, sessions, profile
  { prefix: '/api/user', service: 'svc-auth', access: 'anonymous' },
  { prefix: '/api/login', service: 'svc-auth', access: 'anonymous' },
  { prefix: '/api/logout', service: 'svc-auth', access: 'anonymous' },
  { prefix: '/api/profile', service: 'svc-auth', access: 'session' },
  { prefix: '/api/users', service: 'svc-auth', access: 'session' },
  { prefix: '/api/audit-log', service: 'svc-auth', access: 'session' },
  { prefix: '/api/privacy-requests', service: 'svc-auth', access: 'session' },

  // svc-sms: SMS side and Twilio
  { prefix: '/api/sms/webhook', service: 'svc-sms', access: 'anonymous', public: true, retry: true },
  { prefix: '/api/sms/r', service: 'svc-sms', access: 'anonymous', public: true }, // a text's tracked link (/r/s...)
  { prefix: '/api/sms', service: 'svc-sms', access: 'session' },
  { prefix: '/api/sms-', service: 'svc-sms', access: 'session' }, // sms-campaigns, sms-templates, sms-contacts, sms-logs, ...
  { prefix: '/api/twilio/webhooks', service: 'svc-sms', access: 'anonymous', public: true, retry: true }, // Twilio's signature is checked by svc-sms
  { prefix: '/api/twilio', service: 'svc-sms', access: 'session' },

  // svc-email: its public endpoints; everything else falls to DEFAULT_ROUTE
  { prefix: '/api/webhook', service: 'svc-email', access: 'anonymous', public: true, retry: true },
  { prefix: '/api/unsubscribe', service: 'svc-email', access: 'anonymous', public: true, retry: true },
  { prefix: '/api/r', service: 'svc-email', access: 'anonymous', public: true }, // an email's tracked link (/r/e...)
  { prefix: '/api/resend/webhooks', service: 'svc-email', access: 'anonymous', public: true, retry: true }, // Svix-signed, checked by svc-email
];

/** Contacts, email logs, webhook events and integrations, settings, test, resend, email, unsubscribe lists, and unknown paths (svc-email answers 404 JSON). */
export const DEFAULT_ROUTE: Route = { prefix: '/api', service: 'svc-email', access: 'session' };

const BY_LENGTH = [...ROUTES].sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * A message's tracked link (`/r/<token>`, on PUBLIC_URL) as the API path of the service that made it: the token's
 * first letter names it (`s` SMS, else email). Null for any other path.
 */
export function trackedLinkApiPath(path: string): string | null {
  if (!path.startsWith('/r/') || path.length === 3) return null;
  const token = path.slice(3);
  return token.startsWith('s') ? `/api/sms/r/${token}` : `/api/r/${token}`;
}

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/** The route for an /api path (`path` without the query string). */
export function routeFor(path: string): Route {
  const p = path.toLowerCase();
  for (const route of BY_LENGTH) {
    const { prefix } = route;
    if (!p.startsWith(prefix)) continue;
    if (prefix.endsWith('-') || p.length === prefix.length || p.charCodeAt(prefix.length) === 47 /* / */) return route;
  }
  return DEFAULT_ROUTE;
}
