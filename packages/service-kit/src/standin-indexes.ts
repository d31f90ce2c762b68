import type { Collection, Document } from 'mongodb';
import { dropRetiredIndexes } from './retired-indexes';

/**
 * MONGO_STANDIN_INDEXES=1: the services declare the indexes only the MongoDB stand-in needs. The stand-in
 * (mongo-java-server, which the tests and benches run on) uses an index only when a filter names exactly its fields,
 * and scans every document otherwise; MongoDB serves the same filters by the unique key they begin with. Set by the
 * scripts that start the stand-in (infra/scripts/lib/mongo-standin.mjs), never by production, where these indexes
 * would only cost upkeep on every write. The index check of `npm test` leaves them out, so every query must be
 * served by the indexes production declares.
 */
export function standInIndexesOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MONGO_STANDIN_INDEXES === '1';
}

/** The names of the stand-in's indexes all begin so (the index check knows them by it). */
export const STANDIN_INDEX_PREFIX = 'standin_';

/**
 * Declares on `schema`, with the switch on, an index whose keys are exactly a compare-and-set's filter. Unique: its
 * keys begin with a unique key, so it adds no rule.
 */
export function standInIndex(schema: { index(key: Record<string, 1>, options: { unique: true; name: string }): unknown }, key: Record<string, 1>, name: `${typeof STANDIN_INDEX_PREFIX}${string}`): void {
  if (standInIndexesOn()) schema.index(key, { unique: true, name });
}

/**
 * With the switch off: drops the stand-in's indexes a database may hold (built by a run with the switch on, or
 * before there was one, under other names).
 */
export async function dropStandInIndexes(coll: Collection<Document>, names: readonly string[]): Promise<void> {
  if (!standInIndexesOn()) await dropRetiredIndexes(coll, names);
}
