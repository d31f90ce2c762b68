/**
 * Group commit: calls made while a write is being prepared or is in flight are gathered and written together
 * (one insertMany / bulkWrite instead of one round trip each). On a loopback socket each MongoDB round trip
 * costs the caller ~0.1 ms of CPU here, the largest cost of a webhook; under load this turns N round trips
 * into a few, and adds at most one round trip of latency at low load.
 */
export function createBatcher<I, O>(
  flush: (items: I[]) => Promise<O[]>,
  {
    maxBatch = 500,
    maxInFlight = 2,
    // Writes nobody waits for (after the answer) may wait this long for company: fewer, larger commands.
    lingerMs = 0,
  } = {},
): (item: I) => Promise<O> {
  let queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    if (lingerMs > 0) setTimeout(run, lingerMs);
    else setImmediate(run);
  }

  function run() {
    scheduled = false;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    inFlight++;
    flush(batch.map((b) => b.item))
      .then(
        (out) => batch.forEach((b, i) => b.resolve(out[i]!)),
        (err) => batch.forEach((b) => b.reject(err)),
      )
      .finally(() => {
        inFlight--;
        schedule();
      });
    schedule();
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}
