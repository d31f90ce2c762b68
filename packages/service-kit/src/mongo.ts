import { isDuplicateKeyError } from './errors';
import mongoose, { type Connection } from 'mongoose';
import type { Logger } from './logger';
import type { MongoTarget } from './config';
import { queryLogConnectOptions, recordQueries } from './query-shapes/recorder';

const CONNECT_DEFAULTS = { serverSelectionTimeoutMS: 5_000, heartbeatFrequencyMS: 2_000, maxPoolSize: 20 };

/**
 * What a service's connection is opened with besides the URI: the database as `dbName`, and short server selection
 * so a request fails fast instead of hanging. The driver lets an option given here override the URI's, so a default
 * the URI sets itself (`?maxPoolSize=50`) is left out: the operator's URI wins.
 */
export function mongoConnectOptions(uri: string, dbName: string): mongoose.ConnectOptions {
  const query = uri.includes('?') ? uri.slice(uri.indexOf('?') + 1) : '';
  const inUri = new Set([...new URLSearchParams(query).keys()].map((k) => k.toLowerCase()));
  const defaults = Object.entries(CONNECT_DEFAULTS).filter(([k]) => !inUri.has(k.toLowerCase()));
  return { ...Object.fromEntries(defaults), dbName };
}

/**
 * One connection per service database. The driver reconnects by itself after the server comes back;
 * `/readyz` reads `readyState` meanwhile. Agenda and every collection helper use this connection's `db`.
 */
export async function connectMongo({ uri, dbName }: MongoTarget, logger: Logger): Promise<Connection> {
  const conn = mongoose.createConnection(uri, { ...mongoConnectOptions(uri, dbName), ...queryLogConnectOptions() });
  recordQueries(conn);
  conn.on('disconnected', () => logger.warn('mongo disconnected'));
  conn.on('reconnected', () => logger.info('mongo reconnected'));
  await conn.asPromise();
  return conn;
}

export function mongoReady(conn: Connection): boolean {
  return conn.readyState === 1;
}

const counterSchema = new mongoose.Schema({ _id: String, seq: { type: Number, default: 0 } }, { versionKey: false });

/**
 * Numeric, increasing ids (the spec's ids are numbers) from an atomic counter document; `$inc` with upsert
 * is a single-document atomic update, so two instances never hand out the same id.
 * The document from BEFORE the update is read: the MongoDB stand-in answers `new: true` with its live document,
 * serialised after the lock is gone, so two concurrent calls could both see the later value and hand out the same
 * block (37 of 200 races of six callers on two connections; 0 of 300 reading the document before).
 */
/** The last id each counter handed out in this process (per database), see nextId. */
const lastIssued = new Map<string, number>();

export async function nextId(conn: Connection, name: string, count = 1): Promise<number> {
  const Counter = conn.models.Counter ?? conn.model('Counter', counterSchema, 'counters');
  const key = `${conn.db?.databaseName ?? conn.name}:${name}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const before = await Counter.findOneAndUpdate({ _id: name }, { $inc: { seq: count } }, { upsert: true, new: false }).lean<{ seq: number }>();
      const first = (before?.seq ?? 0) + 1;
      // Ids from one process only ever increase. Under heavy load the stand-in's answer was once stale, and a
      // service's first create reused the id of the record it had seeded at start (a 409 in CI): such an answer is
      // skipped by asking again, which increments past it. (A real MongoDB's findAndModify is atomic.)
      if (first <= (lastIssued.get(key) ?? 0) && attempt < 5) continue;
      lastIssued.set(key, Math.max(lastIssued.get(key) ?? 0, first + count - 1));
      return first;
    } catch (err) {
      // Two first uses of a counter at once both try to insert it; MongoDB refuses one with a duplicate key
      // (documented for concurrent upserts). The document exists now: the retry increments it. Without the retry
      // that create answered 409 "A record with the same unique value already exists".
      if (!isDuplicateKeyError(err) || attempt >= 5) throw err;
    }
  }
}

/**
 * Inserts one record under the next id of `counter`. A duplicate key is either the caller's own conflict (a unique
 * field taken meanwhile: `conflict()` answers the error to throw) or an id already used: a counter behind the stored
 * ids (a restored backup) or, on the stand-in under load, a stale counter answer another instance also got (nextId's
 * guard only knows its own process). The latter takes the next id instead of answering the user a false 409.
 */
export async function insertWithNextId<T>(
  conn: Connection,
  counter: string,
  insert: (id: number) => Promise<T>,
  conflict: () => Promise<Error | null> = async () => null,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await insert(await nextId(conn, counter));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const own = await conflict();
      if (own) throw own;
      if (attempt >= 5) throw err;
    }
  }
}

/** Shapes a stored document for the API: numeric `id`, no `_id`/`__v`. */
export function toApi<T extends Record<string, unknown>>(doc: T): Omit<T, '_id' | '__v'> {
  const { _id, __v, ...rest } = doc as T & { _id?: unknown; __v?: unknown };
  void _id;
  void __v;
  return rest;
}

/**
 * Hands out numeric ids from blocks reserved with one `$inc` each, so a hot insert path (webhooks) costs one
 * counter round-trip per `block` records instead of one per record. Ids stay unique across instances; they are
 * increasing per instance, not globally ordered (sort by timestamps, not ids).
 */
export function createIdAllocator(conn: Connection, name: string, block = 100) {
  let next = 0;
  let end = 0;
  let pending: Promise<void> | null = null;
  async function refill() {
    const first = await nextId(conn, name, block);
    next = first;
    end = first + block;
  }
  return async function allocate(): Promise<number> {
    while (next >= end) {
      pending ??= refill().finally(() => (pending = null));
      await pending;
    }
    return next++;
  };
}
