/**
 * Reads a `/metrics` page the way Prometheus does (text exposition format 0.0.4): one sample per line,
 * `name{label="value",...} number`. Tests compare samples before and after an action.
 */
export interface Scrape {
  /** The sample's value; 0 when the series is absent (a counter not yet incremented). */
  value(name: string, labels?: Record<string, string>): number;
  /** Whether any series of this metric name is exposed (HELP/TYPE included). */
  has(name: string): boolean;
  text: string;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Scrape {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return {
    text,
    value(name, want = {}) {
      return samples
        .filter((s) => s.name === name && Object.entries(want).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);
    },
    has: (name) => text.includes(`# TYPE ${name} `) || samples.some((s) => s.name === name),
  };
}

/** GETs `<origin>/metrics` and parses it; fails on anything but a 200 in Prometheus' format. */
export async function scrapeMetrics(origin: string): Promise<Scrape> {
  const res = await fetch(`${origin}/metrics`);
  const text = await res.text();
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/plain'))
    throw new Error(`GET ${origin}/metrics answered ${res.status} ${res.headers.get('content-type')}: ${text.slice(0, 200)}`);
  return parseMetrics(text);
}
