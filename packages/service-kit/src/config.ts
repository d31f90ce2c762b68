import { DEV_IDENTITY_SECRET, loadedSetting } from './settings';

/**
 * Reads one setting: the value this process validated at start (settings.ts) when it declares it, else the
 * environment (tests and tools that load no settings), with `fallback` when unset.
 */
export function env(name: string, fallback?: string): string {
  const validated = loadedSetting(name);
  if (validated?.value !== undefined) return String(validated.value);
  const v = process.env[name];
  if (v !== undefined && v !== '') return v;
  if (fallback !== undefined) return fallback;
  throw new Error(`Missing required setting ${name}`);
}

export function envInt(name: string, fallback: number): number {
  const validated = loadedSetting(name);
  if (typeof validated?.value === 'number') return validated.value;
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`Setting ${name} must be a number, got "${v}"`);
  return n;
}

export function envBool(name: string, fallback = false): boolean {
  const validated = loadedSetting(name);
  if (typeof validated?.value === 'boolean') return validated.value;
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

/** Read through env() like every setting: the validated value (the development default outside production). */
export function identitySecret(): string {
  const s = env('IDENTITY_SECRET', '');
  if (s) return s;
  if (env('NODE_ENV', '') === 'production') throw new Error('IDENTITY_SECRET must be set in production');
  return DEV_IDENTITY_SECRET;
}

/** Where a service's data lives: `MONGODB_URI` exactly as given, and the database by name. */
export interface MongoTarget {
  uri: string;
  dbName: string;
}

/**
 * Each service owns one database: `MONGODB_DB`, else the service's own name. The URI is handed to the driver
 * untouched: a replica set's seed list (`host1,host2,host3`), `mongodb+srv://` and options are the driver's to
 * read, and its path keeps its meaning (the default `authSource` for credentials); the database is the driver's
 * `dbName` option instead.
 */
export function mongoTarget(defaultDb: string): MongoTarget {
  return { uri: env('MONGODB_URI', 'mongodb://127.0.0.1:27017'), dbName: env('MONGODB_DB', defaultDb) };
}

export function natsPrefix(): string {
  return env('NATS_PREFIX', '');
}
