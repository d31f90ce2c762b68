import type { Connection } from 'mongoose';
import type { ClientSession } from 'mongodb';

/**
 * The writes of one unit of work: `session` is set when they run in a MongoDB transaction (pass it to each write),
 * absent when the server has none and they run one after another in their idempotent order. `afterCommit` runs once
 * the writes are durable together (at once without a transaction), e.g. publishing the outbox rows just written.
 */
export interface Tx {
  session?: ClientSession;
  afterCommit(fn: () => void): void;
}

const support = new WeakMap<Connection, Promise<boolean>>();

/**
 * Whether the server takes multi-document transactions: a replica set member (its `hello` names the set) or a
 * mongos. A standalone server and the test stand-in do not (the stand-in has no `hello` either: no).
 */
export function supportsTransactions(conn: Connection): Promise<boolean> {
  let known = support.get(conn);
  if (!known) {
    known = conn
      .db!.admin()
      .command({ hello: 1 })
      .then((hello) => typeof hello.setName === 'string' || hello.msg === 'isdbgrid')
      .catch(() => false);
    support.set(conn, known);
  }
  return known;
}

/**
 * Runs `work` in one transaction where the server offers them (retried as a whole on a transient error, as the
 * driver's `withTransaction` does), else as it is: its writes must then be safe to repeat, in an order where a crash
 * between two leaves nothing a retry cannot complete.
 */
export async function inTransaction<T>(conn: Connection, work: (tx: Tx) => Promise<T>): Promise<T> {
  let after: (() => void)[] = [];
  if (!(await supportsTransactions(conn))) {
    const result = await work({ afterCommit: (fn) => after.push(fn) });
    after.forEach((fn) => fn());
    return result;
  }
  const session = conn.getClient().startSession();
  try {
    let result!: T;
    await session.withTransaction(async () => {
      // A retried attempt starts again: what an aborted one meant to do after committing is forgotten.
      after = [];
      result = await work({ session, afterCommit: (fn) => after.push(fn) });
    });
    after.forEach((fn) => fn());
    return result;
  } finally {
    await session.endSession();
  }
}
