// Quick load check of svc-email's webhook intake, straight to the service (the gateway's bench is
// `npm run bench:webhooks`). Usage: node svc-email/scripts/load-webhooks.mjs <service url> [seconds] [connections]
// Signs the gateway identity itself (IDENTITY_SECRET or the dev default). Prints req/s, p50/p99, errors.
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';

const [url = 'http://127.0.0.1:4002', seconds = '10', connections = '32'] = process.argv.slice(2);
const secret = process.env.IDENTITY_SECRET || 'dev-only-identity-secret-change-me';
function identity() {
  const p = Buffer.from(JSON.stringify({ user: null, iat: Date.now() })).toString('base64url');
  return `${p}.${createHmac('sha256', secret).update(p).digest('hex')}`;
}
const pool = new Pool(url, { connections: Number(connections), pipelining: 1 });
const run = `${process.pid}-${Date.now().toString(36)}`;
const latencies = [];
let errors = 0;
let n = 0;
let header = identity();
const refresh = setInterval(() => (header = identity()), 10_000);
const end = Date.now() + Number(seconds) * 1000;
async function worker() {
  while (Date.now() < end) {
    const i = n++;
    const body = process.env.HANDSHAKE ? '{"event":"handshake"}' : JSON.stringify({ event: 'contact_created', funnel_id: 'bench', contact: { id: `b-${run}-${i}`, email: `b${i}@example.com`, phone: '+15551234567' } });
    const t = performance.now();
    try {
      const res = await pool.request({ path: '/api/webhook', method: 'POST', headers: { 'content-type': 'application/json', 'x-act-identity': header }, body });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t);
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, worker));
const elapsed = (performance.now() - started) / 1000;
clearInterval(refresh);
latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(1);
console.log(JSON.stringify({ requests: latencies.length, seconds: +elapsed.toFixed(1), rps: Math.round(latencies.length / elapsed), p50_ms: +q(0.5), p99_ms: +q(0.99), errors, run }));
await pool.close();
