/**
 * Concurrency where a task may give its place back before it ends: a burst of texts holds its place until each has
 * had a first answer from Twilio, while its retries wait out their backoffs in the background.
 */

/** `fn` the first time the result is called; later calls do nothing. */
export function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

/** Calls `done` once `count` distinct items have been counted (an item counted again is ignored); at once for none. */
export function countdown<T>(count: number, done: () => void): (item: T) => void {
  const seen = new Set<T>();
  if (count === 0) done();
  return (item) => {
    if (seen.has(item)) return;
    seen.add(item);
    if (seen.size === count) done();
  };
}

/**
 * Runs `fn` for every item, at most `limit` of them unreleased at once: a run holds its place until it calls its
 * `release` (or ends), and may go on after that. `onAllReleased` once every run has released its place; resolves
 * when every run has ended, and rejects then with the first run's error if any failed (the others still run).
 */
export async function eachReleasing<T>(
  items: T[],
  limit: number,
  fn: (item: T, release: () => void) => Promise<void>,
  onAllReleased?: () => void,
): Promise<void> {
  let next = 0;
  let held = 0;
  const runs: Promise<void>[] = [];
  const failures: unknown[] = [];
  const startMore = () => {
    while (held < limit && next < items.length) {
      const item = items[next++]!;
      held++;
      const release = once(() => {
        held--;
        startMore();
      });
      runs.push(
        fn(item, release)
          .catch((err: unknown) => void failures.push(err))
          .finally(release),
      );
    }
    if (held === 0 && next >= items.length) onAllReleased?.();
  };
  startMore();
  // Runs started later (as places free up) join `runs` before the ones awaited end.
  for (let i = 0; i < runs.length; i++) await runs[i];
  if (failures.length) throw failures[0];
}

/** Runs `fn` over `items`, at most `limit` at once. */
export async function eachAtMost<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
