// How late reminders are sent when many come due at once (the benchmark: 10,000 due within one minute,
// p99 lateness ≤ 2 s). Usage, against a svc-email started with REMINDER_DELAY_UNIT_MS=1000:
//   node svc-email/scripts/reminder-lateness.mjs <service url> [contacts=10000] [delay "minutes"=30]
// Posts the contacts as fast as it can (an integration with that delay), waits until every one is due and
// logged, then prints lateness (log timestamp - remind_at) p50/p99/max.
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';

const [url = 'http://127.0.0.1:4002', total = '10000', delay = '30'] = process.argv.slice(2);
const N = Number(total);
const secret = process.env.IDENTITY_SECRET || 'dev-only-identity-secret-change-me';
const admin = { id: 1, username: 'admin', role: 'admin' };
function identity(user) {
  const p = Buffer.from(JSON.stringify({ user, iat: Date.now() })).toString('base64url');
  return `${p}.${createHmac('sha256', secret).update(p).digest('hex')}`;
}
const pool = new Pool(url, { connections: 32 });
async function call(method, path, body, user = admin) {
  const res = await pool.request({ path, method, headers: { 'content-type': 'application/json', 'x-act-identity': identity(user) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const funnel = `lateness-${Date.now().toString(36)}`;
await call('POST', '/api/webhook-integrations', { name: 'Lateness', funnel_id: funnel, reminder_delay: Number(delay) });
await new Promise((r) => setTimeout(r, 1_200));
const t0 = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < N) {
      const i = next++;
      await call('POST', '/api/webhook', { event: 'contact_created', funnel_id: funnel, contact: { id: `l-${i}`, email: `l${i}@example.com` } }, null);
    }
  }),
);
console.log(`posted ${N} contacts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const integ = (await call('GET', '/api/webhook-integrations')).find((i) => i.funnel_id === funnel);
let contacts;
for (;;) {
  contacts = await call('GET', `/api/contacts?integration_id=${integ.id}`);
  const last = Math.max(...contacts.map((c) => Date.parse(c.remind_at)));
  const pending = contacts.filter((c) => c.status === 'pending').length;
  if (Date.now() > last + 3_000 && pending === 0) break;
  await new Promise((r) => setTimeout(r, 2_000));
}
const logs = await call('GET', '/api/email-logs');
const byContact = new Map(logs.map((l) => [l.contact_id, l]));
const late = contacts.map((c) => Date.parse(byContact.get(c.contact_id)?.timestamp ?? 'x') - Date.parse(c.remind_at)).filter(Number.isFinite).sort((a, b) => a - b);
const q = (p) => late[Math.min(late.length - 1, Math.floor(p * late.length))];
const first = Math.min(...contacts.map((c) => Date.parse(c.remind_at)));
const lastDue = Math.max(...contacts.map((c) => Date.parse(c.remind_at)));
console.log(JSON.stringify({ contacts: contacts.length, logged: late.length, dueWindowSec: +((lastDue - first) / 1000).toFixed(1), p50_ms: q(0.5), p99_ms: q(0.99), max_ms: late[late.length - 1] }));
await pool.close();
