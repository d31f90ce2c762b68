import { MongoBulkWriteError, type Collection, type Document, type OptionalUnlessRequiredId, type WriteError } from 'mongodb';

/** A duplicate-key error raised by the unique index named `index`: MongoDB's E11000 message names it. */
function duplicateOn(we: WriteError, index: string): boolean {
  return we.code === 11000 && (we.errmsg?.includes(` index: ${index} dup key`) ?? false);
}

/**
 * Writes documents that may be there already, as told by the unique index `uniqueIndex`: one unordered insertMany,
 * in which a duplicate on that index means "exists, leave it". That is what an upsert with only `$setOnInsert` on
 * the index's keys does, without the server evaluating an update per document (an insert is the cheaper write, on
 * the hot path of every webhook). Returns, per document, whether this
 * call inserted it (a document repeated within `docs` is inserted once). Any other error fails the call.
 */
export async function insertNew<T extends Document>(
  coll: Collection<T>,
  docs: OptionalUnlessRequiredId<T>[],
  uniqueIndex: string,
): Promise<boolean[]> {
  const inserted = docs.map(() => true);
  if (docs.length === 0) return inserted;
  try {
    await coll.insertMany(docs, { ordered: false });
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = [err.writeErrors].flat();
    if (errors.length === 0 || errors.some((we) => !duplicateOn(we, uniqueIndex))) throw err;
    for (const we of errors) inserted[we.index] = false;
  }
  return inserted;
}
