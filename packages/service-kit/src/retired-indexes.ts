import type { Collection, Document } from 'mongodb';

/**
 * Drops indexes a model no longer declares. Mongoose's start-up creates what a schema declares but never drops
 * what it stopped declaring, so a deployment would otherwise keep paying for them on every write. A name already
 * gone (a new database, a second instance that got there first) is not an error.
 */
export async function dropRetiredIndexes(coll: Collection<Document>, names: readonly string[]): Promise<void> {
  const present = new Set((await coll.indexes().catch(() => [])).map((i) => i.name));
  for (const name of names) {
    if (present.has(name)) await coll.dropIndex(name).catch(() => undefined);
  }
}
