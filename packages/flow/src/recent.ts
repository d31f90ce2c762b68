/**
 * Loads shared by the steps that ask for the same key within `ttlMs` (settings, integration, campaign and
 * templates a burst reads for each contact): one read serves a burst instead of one per message. `ttlMs` 0 reads
 * every time.
 */
export class RecentReads {
  private readonly memo = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(private readonly ttlMs: number) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.memo.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value as Promise<T>;
    if (this.memo.size > 1_000) this.memo.clear();
    // A real promise: a mongoose query is a thenable that runs again (and throws) on a second `then`.
    const value = Promise.resolve(load());
    this.memo.set(key, { at: now, value });
    value.catch(() => this.memo.delete(key));
    return value;
  }
}
