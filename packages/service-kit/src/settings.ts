/**
 * One validated configuration per process. Each process declares its settings (the shared ones below plus its
 * own) as envalid specs, and `loadSettings` reads the environment once at start: every bad or missing setting, and
 * every test-only switch set under NODE_ENV=production, is named in one error before anything connects. The
 * `env()` / `envInt()` / `envBool()` call sites then read the validated values (config.ts).
 * `.env.example` lists exactly the declared settings (settings.test.ts checks it); docs/configuration.md groups them.
 */
import { bool, cleanEnv, makeValidator, str, type CleanedEnv, type Spec, type ValidatorSpec } from 'envalid';

/** A whole number of at least `min` (ms, counts, days, ports where 0 means "not opened"). */
export const int = (spec: Spec<number> & { min?: number } = {}): ValidatorSpec<number> => {
  const min = spec.min ?? 0;
  return makeValidator<number>((raw) => {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || n < min) throw new Error(`must be a whole number of at least ${min}, got "${raw}"`);
    return n;
  })(spec);
};

/** One or more `scheme://` URLs separated by commas (several instances or servers). */
export const urls = (schemes: string[], spec: Spec<string> = {}): ValidatorSpec<string> =>
  makeValidator<string>((raw) => {
    for (const part of raw.split(',').map((p) => p.trim())) {
      let url: URL;
      try {
        url = new URL(part);
      } catch {
        throw new Error(`"${part}" is not a URL`);
      }
      if (!schemes.includes(url.protocol.slice(0, -1))) throw new Error(`"${part}" must start with ${schemes.map((s) => `${s}://`).join(' or ')}`);
    }
    return raw;
  })(spec);

/** A MongoDB connection string; its hosts (a seed list) and options are the driver's to read. */
const mongoUri = makeValidator<string>((raw) => {
  if (!/^mongodb(\+srv)?:\/\/[^/?]+/.test(raw)) throw new Error('must be a mongodb:// or mongodb+srv:// connection string');
  return raw;
});

export const DEV_IDENTITY_SECRET = 'dev-only-identity-secret-change-me';

/** svc-email's and svc-sms's: the key sealing the webhook signing secrets they store (secret-box.ts). */
export const secretsKeySetting = {
  SECRETS_KEY: str({ devDefault: 'dev-only-secrets-key-change-me', desc: 'seals stored secrets; required in production' }),
};

/** svc-email's and svc-sms's: what the webhook senders' adapters read (packages/sources, docs/webhooks.md). */
export const senderSettings = {
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: int({ default: 300, desc: 'oldest accepted Stripe-Signature timestamp, in seconds; 0 = no age check' }),
  STRIPE_API_BASE: urls(['http', 'https'], { default: undefined, desc: "where the Stripe API is (line items); default Stripe's own" }),
  WOOCOMMERCE_UNPAID_STATUSES: str({ default: 'pending,failed,checkout-draft', desc: 'order statuses that make a contact' }),
  WOOCOMMERCE_PAID_STATUSES: str({ default: 'processing,completed', desc: 'order statuses that make a purchase' }),
};

/** Settings every back-end process reads (the services through runService, the gateway for its share). */
export const sharedSettings = {
  NODE_ENV: str({ choices: ['development', 'test', 'production'], default: 'development', desc: 'production refuses development secrets and test switches' }),
  HOST: str({ default: '127.0.0.1', desc: 'address to listen on' }),
  PORT: int({ default: undefined, desc: "this process's port, before its own *_PORT" }),
  IDENTITY_SECRET: str({ devDefault: DEV_IDENTITY_SECRET, desc: "signs the gateway's identity header; required in production" }),
  BODY_LIMIT: int({ default: 1024 * 1024, min: 1, desc: 'largest JSON body in bytes' }),
  LOG_LEVEL: str({ choices: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], default: 'info' }),
  PUBLIC_URL: urls(['http', 'https'], { default: 'http://127.0.0.1:8080', desc: 'public origin used in links' }),
  METRICS_PORT: int({ default: 0, desc: 'metrics port when the process has no own setting; 0 = none' }),
  METRICS_HOST: str({ default: undefined, desc: 'address of the metrics port; default HOST' }),
};

/** The services' share (svc-auth, svc-email, svc-sms): data, events, retention, sealed secrets. */
export const serviceSettings = {
  ...sharedSettings,
  MONGODB_URI: mongoUri({ default: 'mongodb://127.0.0.1:27017', desc: 'given to the driver as written' }),
  MONGODB_DB: str({ default: undefined, desc: "overrides the service's database name" }),
  NATS_URL: urls(['nats', 'tls'], { default: 'nats://127.0.0.1:4222' }),
  NATS_PREFIX: str({ default: '', desc: 'prefix of every subject, stream and durable name' }),
  NATS_STREAM_REPLICAS: int({ default: 1, min: 1 }),
  PRIVACY_HASH_SALT: str({ default: undefined, desc: 'key of the erased-person hash; default derived from IDENTITY_SECRET' }),
  DATA_RETENTION_DAYS: int({ default: 180 }),
  RETENTION_PURGE_EVERY_MS: int({ default: 3_600_000, min: 1 }),
  MONGO_QUERY_LOG_DIR: str({ default: undefined, desc: "npm test's index check: record the shape of every query here" }),
  MONGO_STANDIN_INDEXES: str({ default: undefined, desc: '1: declare the indexes only the MongoDB stand-in needs (standin-indexes.ts); never in production' }),
};

/**
 * Switches that exist for the test suites only (they redirect providers to fakes, shorten the product's units of
 * time, record traffic): refused under NODE_ENV=production, so a copied test .env cannot reach a live deployment.
 */
export const TEST_SWITCHES = {
  API_RECORD_FILE: 'gateway: appends every /api answer to this file (the e2e contract check)',
  REMINDER_DELAY_UNIT_MS: 'svc-email: length of one "minute" of reminder delay',
  EMAIL_DELAY_HOUR_MS: 'svc-email: length of one "hour" of a template delay',
  SMS_DELAY_UNIT_MS: 'svc-sms: length of one "minute" of SMS delays',
  SMS_CLOCK_OFFSET_MS: "svc-sms: its clock runs this far from the machine's (tests of the shopper's local hours)",
  EMAIL_CLOCK_OFFSET_MS: "svc-email: its flows' clock runs this far from the machine's (tests of the shopper's local hours)",
  RESEND_BASE_URL: "svc-email: Resend's API origin (a local fake)",
  TWILIO_BASE_URL: "svc-sms: every Twilio API host redirected to this origin (a local fake)",
} as const;
export type TestSwitch = keyof typeof TEST_SWITCHES;

export class SettingsError extends Error {
  constructor(
    readonly process: string,
    readonly problems: string[],
  ) {
    super(`${process}: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}\n(see .env.example and docs/configuration.md)`);
    this.name = 'SettingsError';
  }
}

/** An unset or empty variable is "not set", as docker compose and Kubernetes pass empty values. */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((e): e is [string, string] => e[1] !== undefined && e[1].trim() !== ''));
}

/**
 * Validates `source` against `specs`: the typed values, or one SettingsError naming every bad or missing setting
 * and every test switch of `switches` set under NODE_ENV=production.
 */
export function validateSettings<S extends Record<string, ValidatorSpec<unknown>>>(
  processName: string,
  specs: S,
  { source = process.env, switches = [] }: { source?: NodeJS.ProcessEnv; switches?: readonly TestSwitch[] } = {},
): CleanedEnv<S> {
  // Unset NODE_ENV is development here (envalid would take it for production): the product has always started
  // with development defaults and a warning then.
  const raw: Record<string, string> = { NODE_ENV: 'development', ...withoutEmpty(source) };
  const problems: string[] = [];
  const cleaned = cleanEnv(raw, specs, {
    reporter: ({ errors }) => {
      for (const [name, err] of Object.entries(errors)) {
        const message = (err as Error).message;
        problems.push(raw[name] === undefined ? `${name} is required${raw.NODE_ENV === 'production' ? ' in production' : ''}` : `${name}: ${message}`);
      }
    },
  });
  if (raw.NODE_ENV === 'production') {
    for (const name of switches) if (raw[name] !== undefined) problems.push(`${name} is a test-only switch (${TEST_SWITCHES[name]}): not allowed with NODE_ENV=production`);
  }
  if (problems.length) throw new SettingsError(processName, problems.sort());
  return cleaned;
}

/** The settings this process validated at start, which env()/envInt()/envBool() read. */
let loaded: { values: Record<string, unknown>; declared: Set<string> } | null = null;

/**
 * Reads and validates this process's settings once, at start (the entry file calls it before anything else);
 * exits with one clear message when they are not valid.
 */
export function loadSettings<S extends Record<string, ValidatorSpec<unknown>>>(
  processName: string,
  specs: S,
  options: { switches?: readonly TestSwitch[] } = {},
): CleanedEnv<S> {
  try {
    const values = validateSettings(processName, specs, options);
    loaded = { values: values as Record<string, unknown>, declared: new Set(Object.keys(specs)) };
    return values;
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

/** A validated value, when this process loaded its settings and declares `name`; else `undefined` (not loaded). */
export function loadedSetting(name: string): { value: unknown } | undefined {
  if (!loaded || !loaded.declared.has(name)) return undefined;
  return { value: loaded.values[name] };
}

export { bool, makeValidator, str };
