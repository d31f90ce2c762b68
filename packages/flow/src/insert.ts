import { MongoBulkWriteError, type Collection } from 'mongodb';

/**
 * Inserts every row it can (unordered) and returns the indexes refused for a duplicate key: how a burst claims
 * many (contact, step) sends in one write, a refused row being a send some attempt claimed before.
 */
export async function insertAll<T extends object>(collection: Collection<T>, rows: T[]): Promise<number[]> {
  if (rows.length === 0) return [];
  try {
    // Copies: the driver adds _id to the objects it is given.
    await collection.insertMany(rows.map((r) => ({ ...r })) as unknown as Parameters<Collection<T>['insertMany']>[0], {
      ordered: false,
    });
    return [];
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = [err.writeErrors].flat();
    if (errors.some((e) => e.code !== 11000)) throw err;
    return errors.map((e) => e.index);
  }
}
