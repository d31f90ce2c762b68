import type { TimelineEntry, TimelinePart } from '@act/contracts/src/timeline';
import type { RunningGateway } from './app';
import { deadUrl, fakeUpstream, get, startTestGateway, testConfig, type FakeUpstream } from './testing';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 12, minute)).toISOString();
const entry = (side: 'email' | 'sms', key: string, minute: number, kind: TimelineEntry['kind'] = 'message'): TimelineEntry => ({
  key,
  at: at(minute),
  side,
  kind,
  title: key,
  status: null,
  detail: null,
});
const ann = { side: 'email', id: 7, contact_id: 'ann-1', email: 'ann@example.com', phone: '+15550102000', first_name: 'Ann', integration_id: 1, integration_name: 'Shop', funnel_id: 'shop', status: 'sent', created_at: at(0), purchased_at: null } as const;
const annSms = { ...ann, side: 'sms', id: 3 } as const;
const EMAIL: TimelinePart = {
  contact: ann,
  contacts: [ann],
  person: { emails: ['ann@example.com'], phones: ['+1 (555) 010-2000'], contact_ids: [{ funnel_id: 'shop', contact_id: 'ann-1' }] },
  entries: [entry('email', 'purchase:abc', 50, 'purchase'), entry('email', 'email.log:000000000000002', 30), entry('email', 'email.log:000000000000001', 10)],
  more: false,
};
const SMS: TimelinePart = {
  contact: null,
  contacts: [annSms],
  person: { emails: ['ann@example.com'], phones: ['+15550102000'], contact_ids: [{ funnel_id: 'shop', contact_id: 'ann-1' }] },
  // The purchase both ledgers hold, an SMS at the same instant as an email (the key orders them), and an older one.
  entries: [entry('sms', 'purchase:abc', 50, 'purchase'), entry('sms', 'sms.log:000000000000009', 30), entry('sms', 'sms.log:000000000000008', 20)],
  more: true,
};

const STAFF = { entries: [entry('email', 'staff:5f0c', 40, 'staff')], more: false };

/** A service answering its timeline part (and 404 for an unknown contact). */
const serving = (service: string, part: Pick<TimelinePart, 'entries' | 'more'>) =>
  fakeUpstream(service, (req, res) => {
    if (!req.url!.startsWith('/internal/timeline')) return false;
    const q = new URL(req.url!, 'http://x').searchParams;
    if (q.get('contact') === '404') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Contact not found' }));
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(part));
    return true;
  });

let upstreams: FakeUpstream[] = [];
let gw: RunningGateway | null = null;
afterEach(async () => {
  await gw?.close();
  await Promise.all(upstreams.map((u) => u.close()));
  gw = null;
  upstreams = [];
});

async function start(sms: 'up' | 'dead' = 'up') {
  const email = await serving('svc-email', EMAIL);
  const smsUp = sms === 'up' ? await serving('svc-sms', SMS) : null;
  const auth = await serving('svc-auth', STAFF);
  upstreams = [email, auth, ...(smsUp ? [smsUp] : [])];
  gw = await startTestGateway(testConfig({ 'svc-auth': auth.url, 'svc-email': email.url, 'svc-sms': smsUp?.url ?? (await deadUrl()) }));
  return { email, sms: smsUp };
}

describe('GET /api/contacts/:id/timeline and /api/sms-contacts/:id/timeline (the gateway merges both sides)', () => {
  it('asks the contact\'s side for its part, then the other side by the person it named, and merges newest first with one cursor', async () => {
    const { email, sms } = await start();
    const res = await get(`${gw!.url}/api/contacts/7/timeline?limit=4&before=${encodeURIComponent(`${Date.parse(at(59))}~zzz`)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The purchase both sides answered appears once; same instant: the larger key first.
    // svc-auth's staff action takes its place in time too.
    expect(res.body.entries.map((e: TimelineEntry) => e.key)).toEqual(['purchase:abc', 'staff:5f0c', 'sms.log:000000000000009', 'email.log:000000000000002']);
    // Six entries in all and the SMS side has more: the next page starts after the fourth.
    expect(res.body.next).toBe(`${Date.parse(at(30))}~email.log:000000000000002`);
    expect(res.body.contact).toEqual(ann);
    expect(res.body.contacts).toEqual([ann, annSms]);
    expect(res.body.person.phones).toEqual(['+1 (555) 010-2000', '+15550102000']);
    expect(res.body.unavailable).toEqual([]);

    const own = new URL(email.requests[0]!.url, 'http://x');
    expect(own.pathname).toBe('/internal/timeline');
    expect(Object.fromEntries(own.searchParams)).toEqual({ contact: '7', limit: '4', before: `${Date.parse(at(59))}~zzz` });
    const other = new URL(sms!.requests[0]!.url, 'http://x').searchParams;
    expect(other.getAll('email')).toEqual(['ann@example.com']);
    expect(other.getAll('phone')).toEqual(['+1 (555) 010-2000']);
    expect(other.getAll('contact_key')).toEqual(['shop:ann-1']);
    expect(other.get('before')).toBe(`${Date.parse(at(59))}~zzz`);
    // svc-auth is asked for the staff actions on every contact of the person, by number and by the sender's id.
    const staff = new URL(upstreams[1]!.requests[0]!.url, 'http://x').searchParams;
    expect(staff.getAll('target')).toEqual(['contact:7', 'contact:ann-1', 'sms-contact:3', 'sms-contact:ann-1']);
    expect(staff.get('before')).toBe(`${Date.parse(at(59))}~zzz`);
    // Every call carries the gateway's signed identity (here nobody's: no session cookie), never a client's header.
    for (const r of [email.requests[0]!, sms!.requests[0]!, upstreams[1]!.requests[0]!]) expect(r.identity).toMatchObject({ user: null });

    const smsPage = await get(`${gw!.url}/api/sms-contacts/3/timeline`);
    expect(smsPage.status).toBe(200);
    expect(new URL(sms!.requests[1]!.url, 'http://x').searchParams.get('contact')).toBe('3');
    expect(new URL(email.requests[1]!.url, 'http://x').searchParams.getAll('email')).toEqual(['ann@example.com']);
  });

  it('shows the contact\'s own side when the other does not answer, and says which side is missing', async () => {
    await start('dead');
    const res = await get(`${gw!.url}/api/contacts/7/timeline`);
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: TimelineEntry) => e.key)).toEqual(['purchase:abc', 'staff:5f0c', 'email.log:000000000000002', 'email.log:000000000000001']);
    expect(res.body.unavailable).toEqual(['sms']);
    expect(res.body.next).toBeNull();
  });

  it('relays the contact\'s side refusing (404), refuses a bad limit (400) and any method but GET (405), and is 503 when that side is down', async () => {
    await start();
    expect(await get(`${gw!.url}/api/contacts/404/timeline`)).toMatchObject({ status: 404, body: { error: 'Contact not found' } });
    expect(await get(`${gw!.url}/api/contacts/7/timeline?limit=0`)).toMatchObject({ status: 400 });
    expect(await get(`${gw!.url}/api/contacts/7/timeline?limit=x`)).toMatchObject({ status: 400 });
    const post = await get(`${gw!.url}/api/contacts/7/timeline`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await gw!.close();
    gw = await startTestGateway(testConfig({ 'svc-auth': upstreams[1]!.url, 'svc-email': await deadUrl(), 'svc-sms': upstreams[2]!.url }));
    expect(await get(`${gw.url}/api/contacts/7/timeline`)).toMatchObject({ status: 503, body: { error: 'svc-email unavailable' } });
  });
});
