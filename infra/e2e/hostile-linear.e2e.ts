// Hostile input, size and shape: every string field of the endpoint table the hostile suite walks, filled up to the
// body cap (just under 1 MB; a query string up to what a request head may hold) with plain bulk and with the runs a
// backtracking pattern retries on. Each must be answered within 100 ms (plus the body's own transfer) of the
// endpoint's ordinary answer, never with a 5xx (a documented 502, or a 503 of a service that is down, aside), and an
// ordinary call to the same service made meanwhile must not wait. Also: the destructive test routes refuse a body
// that is not JSON and delete nothing.
import { readStack } from './stack';
import { closeConnections, json, send, type RawResponse } from './hostile/client';
import { cleanup, createFixtures, newTag, readList, type Fixtures } from './hostile/fixtures';
import { buildProbes, median, ordinaryCall, statusProblem, timed, type Probe, type Service } from './hostile/linear';

/** What "within its ordinary answer time" allows: a parse and a refusal, not a search. */
const SLACK_MS = 100;
/**
 * What a body just under 1 MB costs by itself on this machine, on top of an ordinary call: writing it over loopback
 * to the gateway, the gateway streaming it to the service, the service reading and JSON-parsing it and the schema
 * trimming the string (each linear). Measured on this shared two-core machine over 249 probes: median 2 ms, p90
 * 33-47 ms above the endpoint's ordinary answer, single first tries up to 150-400 ms while other test processes ran
 * (the run prints its figures); 150 ms covers the body, and the best of three tries covers the machine's noise.
 */
const TRANSFER_MS = 150;
const TRIES = 3;

describe('hostile input: size and backtracking shapes', () => {
  const stack = readStack();
  let f: Fixtures;

  beforeAll(async () => {
    f = await createFixtures(newTag());
  }, 60_000);
  afterAll(async () => {
    if (f) {
      const problems = await cleanup(f);
      if (problems.length) console.warn(`[hostile-linear] cleanup: ${problems.join('; ')}`);
    }
    closeConnections();
  }, 60_000);

  /** Stopped: its port refuses connections (a service that is only busy does not count). */
  async function serviceStopped(service: Service): Promise<boolean> {
    const port = stack.ports?.[service];
    if (!port) return false;
    return send({ method: 'GET', path: '/healthz', port }).then(
      () => false,
      (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
    );
  }

  /** Undoes what an accepted call stored: a created record goes, a shared setting is put back. */
  async function undo(p: Probe, res: RawResponse, before: Record<string, unknown> | null): Promise<void> {
    if (res.status >= 300 || !p.ep) return;
    if (p.ep.remove && res.json && typeof res.json === 'object') {
      const { method, path, body } = p.ep.remove(res.json as Record<string, unknown>);
      await json(method, path, body, { cookie: f.adminCookie });
    }
    if (p.ep.restore && before) await p.ep.restore(before);
  }

  it('answers every string field at 1 MB and in backtracking shapes about as fast as an ordinary call', async () => {
    // HOSTILE_LINEAR_ONLY=<text>: only the probes whose "name [label]" contains it (to look at one endpoint).
    const only = process.env.HOSTILE_LINEAR_ONLY;
    const probes = buildProbes(f).filter((p) => !only || `${p.name} [${p.label}]`.includes(only));
    const failures: string[] = [];
    const extra: number[] = [];
    const shrunk: string[] = [];
    const ordinaryMs = new Map<Service, number>();
    for (const service of ['svc-auth', 'svc-email', 'svc-sms'] as Service[]) {
      const call = ordinaryCall(service, f);
      const times: number[] = [];
      for (let i = 0; i < 5; i++) times.push((await timed(call())).ms);
      ordinaryMs.set(service, median(times));
    }

    const normalMs = new Map<string, number>();
    const measureNormal = async (p: Probe, before: Record<string, unknown> | null) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { res, ms } = await timed(p.normal());
        await undo(p, res, before);
        times.push(ms);
      }
      normalMs.set(p.name, median(times));
    };

    for (const p of probes) {
      const before = p.ep?.restore && p.ep.snapshot ? ((await p.ep.snapshot()) as Record<string, unknown>) : null;
      if (!normalMs.has(p.name)) await measureNormal(p, before);
      let length = p.max;
      const tries: string[] = [];
      for (let attempt = 0; attempt < TRIES; ) {
        // The probe, and meanwhile an ordinary call to the same service.
        const probe = timed(p.request(length));
        await new Promise((r) => setTimeout(r, 5));
        const alongside = await timed(ordinaryCall(p.service, f)());
        const { res, ms } = await probe;
        await undo(p, res, before);
        if (res.status === 413 && length > 16_384) {
          // A cap of the endpoint's own below the gateway's: the largest body under it is the probe.
          length = Math.floor(length / 2);
          continue;
        }
        if (length < p.max) shrunk.push(`${p.name} ${p.label} at ${length} characters`);
        const problem = statusProblem(p, res, res.status === 503 && (await serviceStopped(p.service)));
        if (problem) {
          failures.push(`${p.name} [${p.label}, ${length} chars] → ${problem}`);
          break;
        }
        const normal = normalMs.get(p.name)!;
        const ordinary = ordinaryMs.get(p.service)!;
        extra.push(ms - normal);
        if (ms <= normal + SLACK_MS + TRANSFER_MS && alongside.ms <= ordinary + SLACK_MS + TRANSFER_MS) {
          tries.length = 0;
          break;
        }
        tries.push(
          `${Math.round(ms)} ms (ordinary answer ${Math.round(normal)} ms), a call alongside ${Math.round(alongside.ms)} ms (ordinary ${Math.round(ordinary)} ms)`,
        );
        attempt++;
        // Load elsewhere may have moved the ordinary figure: measure it again before the next try.
        await measureNormal(p, before);
      }
      if (tries.length) failures.push(`${p.name} [${p.label}, ${length} chars] too slow: ${tries.join('; ')}`);
    }

    const sorted = [...extra].sort((a, b) => a - b);
    const q = (x: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))] ?? 0);
    console.log(
      `[hostile-linear] ${probes.length} probes; time above the endpoint's ordinary answer: median ${q(0.5)} ms, ` +
        `p90 ${q(0.9)} ms, max ${q(1)} ms; ${failures.length} problems` +
        (shrunk.length ? `; under an endpoint's own cap: ${[...new Set(shrunk)].join(', ')}` : ''),
    );
    if (!only) expect(probes.length).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  }, 600_000);

  it('refuses a body that is not JSON on the clear-all test routes, and deletes nothing', async () => {
    const contactsBefore = {
      email: (await readList(f.adminCookie, '/api/contacts')).filter((c) => c.contact_id === f.emailContactRef).length,
      sms: (await readList(f.adminCookie, '/api/sms-contacts')).filter((c) => c.contact_id === f.smsContactRef).length,
    };
    expect(contactsBefore).toEqual({ email: 1, sms: 1 });
    const answers: string[] = [];
    for (const path of ['/api/test/clear-data', '/api/sms-contacts/clear'])
      for (const body of ['{', 'not json', '{"a":1']) {
        const res = await send({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', cookie: f.adminCookie },
          body,
          from: '127.0.0.3',
        });
        answers.push(`${path} ${body} → ${res.status} ${JSON.stringify(res.json)}`);
      }
    expect(answers).toEqual(
      ['/api/test/clear-data', '/api/sms-contacts/clear'].flatMap((path) =>
        ['{', 'not json', '{"a":1'].map((body) => `${path} ${body} → 400 {"error":"Invalid JSON body"}`),
      ),
    );
    expect({
      email: (await readList(f.adminCookie, '/api/contacts')).filter((c) => c.contact_id === f.emailContactRef).length,
      sms: (await readList(f.adminCookie, '/api/sms-contacts')).filter((c) => c.contact_id === f.smsContactRef).length,
    }).toEqual(contactsBefore);
  });
});
