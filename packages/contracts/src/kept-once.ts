/**
 * `compute` once per key, its results kept for up to `limit` keys (past that, computed on every call, so text from
 * outside cannot grow the map): for values that are costly to build and asked for on every message (an
 * `Intl.NumberFormat`, a template's segment budget).
 */
export function keptOnce<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = compute(key);
    if (kept.size < limit) kept.set(key, value);
    return value;
  };
}
