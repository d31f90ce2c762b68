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
    // One write in flight: what arrives meanwhile waits for it and goes out as the next, larger batch. With two,
    // webhook batches were half the size (about 9 deliveries each at saturation), so twice the commands, and on this
    // loopback each command's socket write is the service's largest single cost (bench/webhooks.mjs, 32 connections:
    // 1,487-1,806/s, p99 55-90 ms -> 1,797-2,103/s, p99 46-69 ms).
    maxInFlight = 1,
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
