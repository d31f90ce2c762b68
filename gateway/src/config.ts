import path from 'node:path';
import { env, envInt, identitySecret, int, makeValidator, sharedSettings, str, urls } from '@act/service-kit';
import { parseTrustedHops } from './security/client-address';
import type { ServiceName } from './routes';
import { parseUpstreamList } from './upstreams/instances';

const trustProxy = makeValidator<string>((raw) => {
  parseTrustedHops(raw);
  return raw;
});

/** The gateway's settings (validated once at start by its entry; docs/configuration.md). */
export const gatewaySettings = {
  ...sharedSettings,
  GATEWAY_PORT: int({ default: 8080, desc: 'port when PORT is unset' }),
  AUTH_URL: urls(['http', 'https'], { default: 'http://127.0.0.1:4001' }),
  EMAIL_URL: urls(['http', 'https'], { default: 'http://127.0.0.1:4002' }),
  SMS_URL: urls(['http', 'https'], { default: 'http://127.0.0.1:4003' }),
  GATEWAY_HEALTH_CHECK_MS: int({ default: 2_000 }),
  PROXY_TIMEOUT_MS: int({ default: 15_000, min: 1 }),
  SESSION_CACHE_MS: int({ default: 5_000 }),
  SESSION_CACHE_MAX: int({ default: 10_000 }),
  SHELL_DIR: str({ default: undefined }),
  MFE_EMAIL_DIR: str({ default: undefined }),
  MFE_SMS_DIR: str({ default: undefined }),
  MFE_EMAIL_MANIFEST: str({ default: '/remotes/mfe-email/mf-manifest.json' }),
  MFE_SMS_MANIFEST: str({ default: '/remotes/mfe-sms/mf-manifest.json' }),
  TRUST_PROXY: trustProxy({ default: 'false' }),
  GATEWAY_METRICS_PORT: int({ default: 0 }),
  API_RECORD_FILE: str({ default: undefined, desc: 'test-only' }),
};
export const GATEWAY_TEST_SWITCHES = ['API_RECORD_FILE'] as const;

export interface GatewayConfig {
  host: string;
  port: number;
  /** Each service's instances (`AUTH_URL=http://a:4001,http://b:4001`), balanced round-robin. */
  upstreams: Record<ServiceName, string[]>;
  /** `GATEWAY_HEALTH_CHECK_MS`: how often each instance's /readyz is asked to keep it in rotation (0: never). */
  healthCheckMs: number;
  identitySecret: string;
  /** Bytes; a declared Content-Length above it is refused with 413 before proxying. */
  bodyLimit: number;
  /** Per proxied call (upstream and client socket); past it the caller gets 503. */
  proxyTimeoutMs: number;
  sessionCacheMs: number;
  sessionCacheMax: number;
  shellDir: string;
  remoteDirs: { 'mfe-email': string; 'mfe-sms': string };
  /** `GET /remotes.json`: remote name -> manifest URL, read by the shell at start. */
  remotes: { mfe_email: string; mfe_sms: string };
  /**
   * How many proxies in front of the gateway append to X-Forwarded-* (`TRUST_PROXY`: a TLS terminator, a load
   * balancer). 0 by default: the gateway then takes the socket's peer and plain http, so a client cannot spoof its
   * address (login throttling) or HTTPS. The services receive only the address and scheme the gateway settled on.
   */
  trustedHops: number;
  /**
   * `GATEWAY_METRICS_PORT`: the internal port (not routed publicly): `/readyz` with each service's detail, and the
   * place for metrics. 0 = not opened.
   */
  internalPort: number;
  /** `PUBLIC_URL`: the origin the app is served from; state-changing browser calls must come from it. */
  publicUrl: string | null;
  /**
   * `API_RECORD_FILE`, for the e2e suite only: every /api answer (method, path, status, body) is appended to this file
   * so the contract check can validate what the suite saw against the API document.
   */
  recordFile?: string | null;
}

const gatewayDir = path.resolve(__dirname, '..');
const repoRoot = path.resolve(gatewayDir, '..');
/** A relative folder counts from the gateway's folder, wherever the process was started from. */
const dir = (name: string, fallback: string) => {
  const set = env(name, '');
  return set ? path.resolve(gatewayDir, set) : path.join(repoRoot, fallback);
};

export function loadConfig(): GatewayConfig {
  return {
    host: env('HOST', '127.0.0.1'),
    port: envInt('PORT', envInt('GATEWAY_PORT', 8080)),
    upstreams: {
      'svc-auth': parseUpstreamList(env('AUTH_URL', 'http://127.0.0.1:4001')),
      'svc-email': parseUpstreamList(env('EMAIL_URL', 'http://127.0.0.1:4002')),
      'svc-sms': parseUpstreamList(env('SMS_URL', 'http://127.0.0.1:4003')),
    },
    healthCheckMs: envInt('GATEWAY_HEALTH_CHECK_MS', 2_000),
    identitySecret: identitySecret(),
    bodyLimit: envInt('BODY_LIMIT', 1024 * 1024),
    proxyTimeoutMs: envInt('PROXY_TIMEOUT_MS', 15_000),
    sessionCacheMs: envInt('SESSION_CACHE_MS', 5_000),
    sessionCacheMax: envInt('SESSION_CACHE_MAX', 10_000),
    shellDir: dir('SHELL_DIR', 'shell/dist'),
    remoteDirs: { 'mfe-email': dir('MFE_EMAIL_DIR', 'mfe-email/dist'), 'mfe-sms': dir('MFE_SMS_DIR', 'mfe-sms/dist') },
    remotes: {
      mfe_email: env('MFE_EMAIL_MANIFEST', '/remotes/mfe-email/mf-manifest.json'),
      mfe_sms: env('MFE_SMS_MANIFEST', '/remotes/mfe-sms/mf-manifest.json'),
    },
    trustedHops: parseTrustedHops(env('TRUST_PROXY', 'false')),
    internalPort: envInt('GATEWAY_METRICS_PORT', 0),
    publicUrl: process.env.PUBLIC_URL ? new URL(env('PUBLIC_URL')).origin : null,
    recordFile: env('API_RECORD_FILE', '') || null,
  };
}
