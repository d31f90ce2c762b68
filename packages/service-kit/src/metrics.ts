import http, { type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * One Prometheus registry per process (a process is one service or the gateway): the metrics every part of the
 * product reports, defined once here so both channels name and label them alike. Served on a port of its own
 * (`startMetricsServer`), never through the gateway.
 */
export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

let defaultsOn = false;
/** Names the process in every series (`service` label) and adds Node's process metrics. */
export function initMetrics(service: string): void {
  metricsRegistry.setDefaultLabels({ service });
  if (!defaultsOn) collectDefaultMetrics({ register: metricsRegistry });
  defaultsOn = true;
}

/** Seconds, from a few milliseconds (a webhook) to the proxy's 15 s timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export const httpRequests = new Counter({
  name: 'act_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});
export const httpDuration = new Histogram({
  name: 'act_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers,
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Records one answered request. `route` is the pattern, never the raw path, and a method outside HTTP's usual
 * ones is `OTHER`: a client inventing paths or methods must not be able to invent series.
 */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

export const webhookDeliveries = new Counter({
  name: 'act_webhook_deliveries_total',
  help: 'Webhook deliveries received, by side (email, sms), source, verification and outcome',
  labelNames: ['side', 'source', 'verification', 'outcome'] as const,
  registers,
});

export const reminderLateness = new Histogram({
  name: 'act_reminder_lateness_seconds',
  help: 'How long after its due time a reminder was handed to the provider, by channel',
  labelNames: ['channel'] as const,
  buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
  registers,
});

export const providerCalls = new Counter({
  name: 'act_provider_calls_total',
  help: 'Calls to a delivery provider (each attempt), by provider and outcome (ok, retryable, failed)',
  labelNames: ['provider', 'outcome'] as const,
  registers,
});
export const providerRetries = new Counter({
  name: 'act_provider_retries_total',
  help: 'Provider calls attempted again after a retryable answer (429, 5xx, no answer)',
  labelNames: ['provider'] as const,
  registers,
});
export const providerRateLimitWaits = new Counter({
  name: 'act_provider_rate_limit_waits_total',
  help: "Sends that waited for the provider's rate limit (our pacing or the provider's 429)",
  labelNames: ['provider', 'reason'] as const,
  registers,
});
export const providerRateLimitWaitSeconds = new Counter({
  name: 'act_provider_rate_limit_wait_seconds_total',
  help: "Seconds spent waiting for the provider's rate limit",
  labelNames: ['provider', 'reason'] as const,
  registers,
});

/** Records a wait for a provider's rate limit (`reason`: `pacing` before a call, `429` after one). */
export function observeRateLimitWait(provider: string, reason: 'pacing' | '429', ms: number): void {
  if (ms <= 0) return;
  providerRateLimitWaits.inc({ provider, reason });
  providerRateLimitWaitSeconds.inc({ provider, reason }, ms / 1000);
}

export const consumerRedeliveries = new Counter({
  name: 'act_consumer_redeliveries_total',
  help: 'Events JetStream delivered again to a consumer (a handler failed or an instance died holding it)',
  labelNames: ['consumer'] as const,
  registers,
});
export const consumerFailures = new Counter({
  name: 'act_consumer_handler_failures_total',
  help: 'Event handler failures (the event is redelivered)',
  labelNames: ['consumer'] as const,
  registers,
});

/**
 * Gauges read when Prometheus scrapes (outbox rows, consumer lag, Agenda jobs): each source registers a probe. A
 * probe that fails or takes longer than a second leaves its series out of that scrape rather than stalling it.
 */
type Sample = { labels?: Record<string, string>; value: number };
type Probe = () => Promise<Sample[]>;

function probedGauge(name: string, help: string, labelNames: string[]) {
  const probes = new Set<Probe>();
  new Gauge({
    name,
    help,
    labelNames,
    registers,
    async collect() {
      this.reset();
      const results = await Promise.all([...probes].map((p) => withTimeout(p(), 1_000).catch(() => [] as Sample[])));
      for (const s of results.flat()) {
        if (s.labels) this.set(s.labels, s.value);
        else this.set(s.value);
      }
    },
  });
  return (probe: Probe) => {
    probes.add(probe);
    return () => void probes.delete(probe);
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error('probe timed out')), ms))),
  ]);
}

export const probeOutboxWaiting = probedGauge('act_outbox_waiting', 'Outbox events written but not yet published to NATS', []);
export const probeOutboxOldestAge = probedGauge(
  'act_outbox_oldest_age_seconds',
  'Age of the oldest outbox event not yet published (0 when none waits)',
  [],
);
export const probeConsumerLag = probedGauge(
  'act_consumer_pending',
  'Events of a durable consumer not yet delivered or not yet acknowledged (JetStream num_pending + num_ack_pending)',
  ['consumer'],
);
export const probeAgendaDue = probedGauge('act_agenda_jobs_due', 'Agenda jobs whose run time has come and that no instance holds', ['collection']);
export const probeAgendaRunning = probedGauge('act_agenda_jobs_running', 'Agenda jobs an instance holds (locked) right now', ['collection']);

/** Minimal view of a MongoDB collection, so callers pass the driver's or mongoose's collection alike. */
interface JobsCollection {
  collectionName: string;
  countDocuments(filter: Record<string, unknown>): Promise<number>;
}

/** Agenda's jobs collection: due (next run reached, not locked, not disabled) and running (locked) jobs. */
export function watchAgendaJobs(jobs: JobsCollection): () => void {
  const labels = { collection: jobs.collectionName };
  const offDue = probeAgendaDue(async () => [
    { labels, value: await jobs.countDocuments({ nextRunAt: { $lte: new Date() }, lockedAt: null, disabled: { $ne: true } }) },
  ]);
  const offRunning = probeAgendaRunning(async () => [{ labels, value: await jobs.countDocuments({ lockedAt: { $ne: null } }) }]);
  return () => {
    offDue();
    offRunning();
  };
}

export const probeFlowDue = probedGauge('act_flow_steps_due', 'Flow steps whose due time has come and that no instance holds (a held step is due at its lease end)', ['collection']);

/** A flow's step rows: those waiting and due now, counted on the index the due poller reads (state, due_at). */
export function watchFlowSteps(steps: JobsCollection): () => void {
  const labels = { collection: steps.collectionName };
  return probeFlowDue(async () => [{ labels, value: await steps.countDocuments({ state: 'waiting', due_at: { $lte: new Date() } }) }]);
}

/** `GET /metrics` in Prometheus' text format; nothing else. */
export async function metricsResponse(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
    return;
  }
  try {
    const text = await metricsRegistry.metrics();
    res.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (err) {
    res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (err as Error).message }));
  }
}

/** The metrics port (not routed publicly). `port` 0 means not opened: returns null. */
export async function startMetricsServer(port: number, host: string): Promise<{ server: Server; port: number } | null> {
  if (!(port > 0)) return null;
  const server = http.createServer((req, res) => void metricsResponse(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { server, port: (server.address() as { port: number }).port };
}
