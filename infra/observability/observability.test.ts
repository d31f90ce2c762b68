// The observability profile's configuration agrees with the product: Prometheus scrapes every metrics port the
// compose file opens, and the dashboard and alerts query only metrics the code defines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const HERE = __dirname;
const ROOT = path.resolve(HERE, '../..');
const read = (p: string) => readFileSync(path.resolve(ROOT, p), 'utf8');

/** Metric names defined in service-kit's metrics module (`name: 'act_...'`). */
function definedMetrics(): Set<string> {
  const src = read('packages/service-kit/src/metrics.ts');
  const names = [...src.matchAll(/(?:name: |probedGauge\(\s*)'(act_[a-z_]+)'/g)].map((m) => m[1]!);
  return new Set(names);
}

/** `act_x_bucket` / `_count` / `_sum` are series of histogram `act_x`. */
const baseName = (series: string, known: Set<string>) => (known.has(series) ? series : series.replace(/_(bucket|count|sum)$/, ''));

describe('infra/observability', () => {
  const known = definedMetrics();

  it('finds the metric definitions it checks against', () => {
    for (const name of ['act_http_requests_total', 'act_webhook_deliveries_total', 'act_reminder_lateness_seconds', 'act_outbox_waiting', 'act_consumer_pending', 'act_agenda_jobs_due'])
      expect(known).toContain(name);
  });

  it('the dashboard and the alert rules query only metrics the code defines', () => {
    const dashboard = read('infra/observability/grafana/dashboards/act-overview.json');
    const alerts = read('infra/observability/alerts.yml');
    const used = new Set([...`${dashboard}\n${alerts}`.matchAll(/\bact_[a-z_]+\b/g)].map((m) => m[0]));
    expect(used.size).toBeGreaterThan(8);
    const unknown = [...used].filter((s) => !known.has(baseName(s, known)));
    expect(unknown).toEqual([]);
    const panels = (JSON.parse(dashboard) as { panels: { datasource: { uid: string } }[] }).panels;
    const uid = (parse(read('infra/observability/grafana/provisioning/datasources/prometheus.yml')) as { datasources: { uid: string }[] }).datasources[0]!.uid;
    expect(panels.every((p) => p.datasource.uid === uid)).toBe(true);
    const rules = (parse(alerts) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThanOrEqual(6);
  });

  it('Prometheus scrapes each metrics port the compose file opens, on the service that opens it', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, { environment?: Record<string, string>; profiles?: string[] }> };
    const opened = Object.entries(compose.services).flatMap(([name, svc]) =>
      Object.entries(svc.environment ?? {})
        .filter(([k]) => /_METRICS_PORT$/.test(k))
        .map(([, port]) => `${name}:${port}`),
    );
    const prometheus = parse(read('infra/observability/prometheus.yml')) as { scrape_configs: { static_configs: { targets: string[] }[] }[] };
    const scraped = prometheus.scrape_configs.flatMap((c) => c.static_configs.flatMap((s) => s.targets));
    expect(opened.sort()).toEqual(['gateway:9464', 'svc-auth:9465', 'svc-email:9466', 'svc-sms:9467']);
    expect(scraped.sort()).toEqual(opened.sort());
    expect(compose.services.prometheus?.profiles).toEqual(['observability']);
    expect(compose.services.grafana?.profiles).toEqual(['observability']);
  });
});
