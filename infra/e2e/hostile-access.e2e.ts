// Access rules under attack: service ports refuse calls without a valid gateway identity, the gateway
// never lets a client's own identity header through, admin-only calls refuse a plain user (and change nothing),
// the session cookie's flags, and login throttling per username and per client address.
import { randomBytes } from 'node:crypto';
import { readStack } from './stack';
import { cookieHeader, errorMessage, json, login, ok, send, signIdentity, type RawResponse } from './hostile/client';
import { newTag, readList } from './hostile/fixtures';

const stack = readStack();
const SECRET = process.env.IDENTITY_SECRET;
const IDENTITY_ERROR = 'Unauthorized: missing or invalid gateway identity';
const trustProxy = ['1', 'true', 'yes', 'on'].includes((process.env.TRUST_PROXY ?? '').toLowerCase());

type Service = 'svc-auth' | 'svc-email' | 'svc-sms';

/** Every route of each service (its routes.ts files), public ones included: public means "no user", not "no gateway". */
const SERVICE_ROUTES: Record<Service, [string, string][]> = {
  'svc-auth': [
    ['GET', '/api/user'],
    ['POST', '/api/login'],
    ['POST', '/api/logout'],
    ['PATCH', '/api/profile'],
    ['POST', '/api/profile/change-password'],
    ['GET', '/api/users'],
    ['POST', '/api/users'],
    ['PATCH', '/api/users/1'],
    ['POST', '/api/users/1/reset-password'],
    ['DELETE', '/api/users/1'],
    ['GET', '/internal/session'],
  ],
  'svc-email': [
    ['POST', '/api/webhook'],
    ['GET', '/api/contacts'],
    ['POST', '/api/contacts/mark-purchased'],
    ['GET', '/api/email-logs'],
    ['GET', '/api/webhook-events'],
    ['GET', '/api/webhook-integrations'],
    ['POST', '/api/webhook-integrations'],
    ['PATCH', '/api/webhook-integrations/1'],
    ['POST', '/api/webhook-integrations/1/clear-contacts'],
    ['DELETE', '/api/webhook-integrations/1'],
    ['GET', '/api/settings/reminder-delay'],
    ['POST', '/api/settings/reminder-delay'],
    ['POST', '/api/test/clear-data'],
    ['POST', '/api/test/check-abandoned-carts'],
    ['GET', '/api/resend/config'],
    ['POST', '/api/resend/config'],
    ['POST', '/api/resend/test-connection'],
    ['GET', '/api/resend/templates'],
    ['POST', '/api/resend/templates'],
    ['GET', '/api/resend/templates/campaign/1'],
    ['PATCH', '/api/resend/templates/1'],
    ['DELETE', '/api/resend/templates/1'],
    ['POST', '/api/resend/templates/1/test'],
    ['GET', '/api/email/campaigns'],
    ['POST', '/api/email/campaigns'],
    ['GET', '/api/email/campaigns/1'],
    ['PUT', '/api/email/campaigns/1'],
    ['DELETE', '/api/email/campaigns/1'],
    ['GET', '/api/unsubscribe?email=a@example.com'],
    ['POST', '/api/unsubscribe'],
    ['POST', '/api/unsubscribe/one-click?token=x'],
    ['GET', '/api/unsubscribe/one-click?token=x'],
    ['GET', '/api/direct-unsubscribes'],
    ['POST', '/api/email-unsubscribes/quick-add'],
    ['POST', '/api/email-unsubscribes/remove'],
    ['GET', '/api/email/incentive-pools'],
    ['POST', '/api/email/incentive-pools'],
    ['GET', '/api/email/incentive-pools/000000000000000000000001'],
    ['GET', '/api/email/templates/1/incentive'],
    ['PUT', '/api/email/templates/1/incentive'],
    ['GET', '/api/email/integrations/1/shop'],
    ['PUT', '/api/email/integrations/1/shop'],
    ['DELETE', '/api/email/integrations/1/shop'],
    ['GET', '/api/email/incentive-redemptions'],
  ],
  'svc-sms': [
    ['POST', '/api/sms/webhook'],
    ['GET', '/api/sms-webhook-integrations'],
    ['POST', '/api/sms-webhook-integrations'],
    ['PATCH', '/api/sms-webhook-integrations/1'],
    ['DELETE', '/api/sms-webhook-integrations/1'],
    ['GET', '/api/sms-campaigns'],
    ['POST', '/api/sms-campaigns'],
    ['PATCH', '/api/sms-campaigns/1'],
    ['DELETE', '/api/sms-campaigns/1'],
    ['GET', '/api/sms-templates'],
    ['POST', '/api/sms-templates'],
    ['PATCH', '/api/sms-templates/1'],
    ['DELETE', '/api/sms-templates/1'],
    ['POST', '/api/sms-templates/1/test'],
    ['GET', '/api/sms-contacts'],
    ['POST', '/api/sms-contacts/mark-purchased'],
    ['POST', '/api/sms-contacts/clear'],
    ['GET', '/api/sms-logs'],
    ['GET', '/api/sms-webhook-events'],
    ['GET', '/api/sms-stats-simple'],
    ['GET', '/api/twilio/config'],
    ['POST', '/api/twilio/config'],
    ['GET', '/api/twilio/messaging-services'],
    ['POST', '/api/twilio/test-connection'],
    ['POST', '/api/twilio/test-sms'],
    ['POST', '/api/twilio/webhooks'],
    ['GET', '/api/sms/incentive-pools'],
    ['POST', '/api/sms/incentive-pools'],
    ['GET', '/api/sms/incentive-pools/000000000000000000000001'],
    ['GET', '/api/sms/templates/1/incentive'],
    ['PUT', '/api/sms/templates/1/incentive'],
    ['GET', '/api/sms/integrations/1/shop'],
    ['PUT', '/api/sms/integrations/1/shop'],
    ['DELETE', '/api/sms/integrations/1/shop'],
    ['GET', '/api/sms/incentive-redemptions'],
  ],
};

const ADMIN = { id: 1, username: 'admin', role: 'admin' as const };

/** Identity headers a caller without the gateway might try. */
function badIdentities(): [string, string | undefined][] {
  const wrongSecret = randomBytes(24).toString('base64url');
  const out: [string, string | undefined][] = [
    ['no identity header', undefined],
    ['garbage', 'garbage'],
    ['only a dot', '.'],
    [
      'payload without signature',
      `${Buffer.from(JSON.stringify({ user: ADMIN, iat: Date.now() })).toString('base64url')}.`,
    ],
    ['signed with another secret', signIdentity(ADMIN, wrongSecret)],
  ];
  if (SECRET) {
    const asUser = signIdentity({ id: 2, username: 'someone', role: 'user' }, SECRET);
    const adminPayload = signIdentity(ADMIN, SECRET).split('.')[0];
    out.push(
      ['expired (5 minutes old)', signIdentity(ADMIN, SECRET, Date.now() - 5 * 60_000)],
      ['issued in the future', signIdentity(ADMIN, SECRET, Date.now() + 5 * 60_000)],
      ['admin payload with a user signature', `${adminPayload}.${asUser.split('.')[1]}`],
      ['signature cut short', asUser.slice(0, -2)],
    );
  }
  return out;
}

function bodyFor(method: string): string | undefined {
  return method === 'GET' || method === 'DELETE' ? undefined : '{}';
}

describe('service ports without the gateway', () => {
  const ports = stack.ports;

  it('refuse every route with 401 without a valid signed identity, and answer health checks', async () => {
    const failures: string[] = [];
    let sent = 0;
    const calls: Promise<void>[] = [];
    for (const [service, routes] of Object.entries(SERVICE_ROUTES) as [Service, [string, string][]][]) {
      const port = ports[service];
      for (const [method, path] of routes) {
        for (const [label, header] of badIdentities()) {
          calls.push(
            (async () => {
              const res = await send({
                method,
                path,
                port,
                headers: {
                  'content-type': 'application/json',
                  ...(header !== undefined ? { 'x-act-identity': header } : {}),
                },
                body: bodyFor(method),
              });
              sent++;
              if (res.status !== 401 || errorMessage(res) !== IDENTITY_ERROR)
                failures.push(`${service} ${method} ${path} [${label}] → ${res.status} ${res.text.slice(0, 100)}`);
            })(),
          );
        }
      }
      for (const path of ['/healthz', '/readyz']) {
        const res = await send({ method: 'GET', path, port });
        if (res.status !== 200) failures.push(`${service} ${path} → ${res.status}`);
      }
    }
    await Promise.all(calls);
    console.log(`[hostile-access] ${sent} direct calls to the service ports without a valid identity`);
    expect(failures).toEqual([]);
  });

  (SECRET ? it : it.skip)(
    'accept a fresh identity signed with the shared secret (so the 401s above are the signature)',
    async () => {
      const res = await send({
        method: 'GET',
        path: '/api/users',
        port: ports['svc-auth'],
        headers: { 'x-act-identity': signIdentity(ADMIN, SECRET!) },
      });
      expect(res.status).toBe(200);
    },
  );
});

describe('the gateway and the roles', () => {
  const tag = newTag();
  let adminCookie: string;
  let userCookie: string;
  let victim: { id: number; username: string };
  let unsubscribeId: number;

  beforeAll(async () => {
    adminCookie = await login('admin', stack.adminPassword);
    const as = { cookie: adminCookie };
    const [user, v] = await Promise.all([
      ok<{ id: number; username: string }>(
        'POST',
        '/api/users',
        { username: `${tag}-user`, password: `Pw-${tag}`, role: 'user' },
        as,
      ),
      ok<{ id: number; username: string }>(
        'POST',
        '/api/users',
        { username: `${tag}-victim`, password: `Pw-${tag}`, role: 'user', full_name: 'Victim' },
        as,
      ),
    ]);
    victim = v;
    userCookie = await login(user.username, `Pw-${tag}`);
    const added = await ok<{ entry: { id: number } }>(
      'POST',
      '/api/email-unsubscribes/quick-add',
      { email: `${tag}@example.com` },
      as,
    );
    unsubscribeId = added.entry.id;
  });

  afterAll(async () => {
    const as = { cookie: adminCookie };
    await json('POST', '/api/email-unsubscribes/remove', { id: unsubscribeId }, as);
    for (const u of await readList(adminCookie, '/api/users'))
      if (String(u.username).startsWith(tag)) await json('DELETE', `/api/users/${u.id}`, undefined, as);
  });

  it("replaces a client's own x-act-identity header with the real one", async () => {
    const forged = SECRET ? signIdentity(ADMIN, SECRET) : signIdentity(ADMIN, 'guess');
    const anon = await json('GET', '/api/users', undefined, { headers: { 'x-act-identity': forged } });
    expect([anon.status, errorMessage(anon)]).toEqual([401, 'Authentication required']);
    const asUser = await json('GET', '/api/users', undefined, {
      cookie: userCookie,
      headers: { 'x-act-identity': forged },
    });
    expect([asUser.status, errorMessage(asUser)]).toEqual([403, 'Admin access required']);
  });

  it('refuses every admin-only call from a plain user with 403 and changes nothing', async () => {
    // Only the records these calls aim at: other test files change other rows of the shared stack meanwhile.
    const snapshot = async () => ({
      users: (await readList(adminCookie, '/api/users')).filter(
        (u) => u.id === 1 || u.id === victim.id || String(u.username).startsWith(tag),
      ),
      unsubscribes: (await readList(adminCookie, '/api/direct-unsubscribes')).filter((u) =>
        JSON.stringify(u).includes(tag),
      ),
      resend: await ok('GET', '/api/resend/config', undefined, { cookie: adminCookie }),
      shops: [await ok('GET', '/api/email/integrations/1/shop', undefined, { cookie: adminCookie }), await ok('GET', '/api/sms/integrations/1/shop', undefined, { cookie: adminCookie })],
    });
    const before = await snapshot();
    const calls: [string, string, unknown][] = [
      ['GET', '/api/users', undefined],
      ['POST', '/api/users', { username: `${tag}-made-by-user`, password: 'Passw0rd-x', role: 'admin' }],
      ['PATCH', `/api/users/${victim.id}`, { role: 'admin', full_name: 'Owned', email: null }],
      ['PATCH', '/api/users/1', { role: 'user', full_name: 'Owned' }],
      ['POST', `/api/users/${victim.id}/reset-password`, { password: 'Owned-pass-1' }],
      ['POST', '/api/users/1/reset-password', { password: 'Owned-pass-1' }],
      ['DELETE', `/api/users/${victim.id}`, undefined],
      ['DELETE', '/api/users/1', undefined],
      ['POST', '/api/resend/config', { apiKey: 're_owned', from: 'owned@example.com' }],
      ['POST', '/api/twilio/config', { phone_number: '+15005550009', webhook_url: 'https://evil.example/cb' }],
      ['GET', '/api/direct-unsubscribes', undefined],
      ['POST', '/api/email-unsubscribes/quick-add', { email: `${tag}-by-user@example.com` }],
      ['POST', '/api/email-unsubscribes/remove', { id: unsubscribeId }],
      ['PUT', '/api/email/integrations/1/shop', { platform: 'shopify', shop: 'owned.myshopify.com', key: 'shpat_owned' }],
      ['DELETE', '/api/email/integrations/1/shop', undefined],
      ['PUT', '/api/sms/integrations/1/shop', { platform: 'shopify', shop: 'owned.myshopify.com', key: 'shpat_owned' }],
      ['DELETE', '/api/sms/integrations/1/shop', undefined],
    ];
    const answers: string[] = [];
    for (const [method, path, body] of calls) {
      const asUser = await json(method, path, body, { cookie: userCookie });
      answers.push(`${method} ${path} as user → ${asUser.status} ${errorMessage(asUser)}`);
      const anon = await json(method, path, body);
      answers.push(`${method} ${path} signed out → ${anon.status} ${errorMessage(anon)}`);
    }
    expect(answers).toEqual(
      calls.flatMap(([method, path]) => [
        `${method} ${path} as user → 403 Admin access required`,
        `${method} ${path} signed out → 401 Authentication required`,
      ]),
    );
    expect(await snapshot()).toEqual(before);
    // The victim can still sign in with the old password: the refused reset did nothing.
    await expect(login(victim.username, `Pw-${tag}`)).resolves.toContain('act.sid=');
  });
});

describe('session cookie', () => {
  const cookiesOf = (res: RawResponse) => res.headers['set-cookie'] ?? [];

  it('is HttpOnly and SameSite=Lax, signed, renewed at sign-in and dropped at sign-out', async () => {
    const res = await json('POST', '/api/login', { username: 'admin', password: stack.adminPassword });
    expect(res.status).toBe(200);
    const set = cookiesOf(res);
    expect(set.map((c) => c.split('=')[0])).toEqual(expect.arrayContaining(['act.sid', 'act.sid.sig']));
    for (const c of set) {
      expect(c).toMatch(/;\s*httponly/i);
      expect(c).toMatch(/;\s*samesite=lax/i);
      expect(c).toMatch(/;\s*path=\//i);
      // Plain HTTP here: a Secure cookie would never come back.
      expect(c).not.toMatch(/;\s*secure/i);
    }
    const cookie = cookieHeader(res);
    const again = cookieHeader(await json('POST', '/api/login', { username: 'admin', password: stack.adminPassword }));
    expect(again).not.toEqual(cookie);

    // A session id with a forged signature is nobody.
    const forged = cookie.replace(/act\.sid\.sig=[^;]+/, 'act.sid.sig=forged');
    expect((await json('GET', '/api/user', undefined, { cookie: forged })).json).toEqual({ authenticated: false });

    const out = await json('POST', '/api/logout', undefined, { cookie });
    expect(cookiesOf(out).some((c) => /^act\.sid=;/.test(c) && /expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    expect((await json('GET', '/api/user', undefined, { cookie })).json).toEqual({ authenticated: false });
  });

  it(`follows X-Forwarded-Proto only when the gateway trusts its proxy (TRUST_PROXY ${trustProxy ? 'on' : 'off'})`, async () => {
    // A client that claims HTTPS to a gateway without TRUST_PROXY: the claim is dropped, no Secure cookie.
    const res = await json(
      'POST',
      '/api/login',
      { username: 'admin', password: stack.adminPassword },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(res.status).toBe(200);
    for (const c of cookiesOf(res)) expect(/;\s*secure/i.test(c)).toBe(trustProxy);
  });

  (SECRET ? it : it.skip)(
    'is Secure when X-Forwarded-Proto https reaches svc-auth (what a trusted proxy forwards)',
    async () => {
      const res = await send({
        method: 'POST',
        path: '/api/login',
        port: stack.ports['svc-auth'],
        headers: {
          'content-type': 'application/json',
          'x-act-identity': signIdentity(null, SECRET!),
          'x-forwarded-proto': 'https',
          'x-forwarded-for': '203.0.113.7',
        },
        body: JSON.stringify({ username: 'admin', password: stack.adminPassword }),
      });
      expect(res.status).toBe(200);
      const set = cookiesOf(res);
      expect(set.length).toBeGreaterThan(0);
      for (const c of set) {
        expect(c).toMatch(/;\s*secure/i);
        expect(c).toMatch(/;\s*httponly/i);
        expect(c).toMatch(/;\s*samesite=lax/i);
      }
    },
  );
});

describe('login throttling', () => {
  const tag = newTag();
  // Source addresses of their own (any 127.x.y.z reaches the gateway): the per-address limit then never touches
  // the other tests, which sign in from 127.0.0.1.
  const net = 10 + (parseInt(tag.slice(-2), 16) % 200);
  const from = (i: number) => `127.${net}.77.${i}`;
  let adminCookie: string;
  const username = `${tag}-throttled`;
  const password = `Pw-${tag}`;

  beforeAll(async () => {
    adminCookie = await login('admin', stack.adminPassword);
    await ok('POST', '/api/users', { username, password, role: 'user' }, { cookie: adminCookie });
  });
  afterAll(async () => {
    for (const u of await readList(adminCookie, '/api/users'))
      if (u.username === username) await json('DELETE', `/api/users/${u.id}`, undefined, { cookie: adminCookie });
  });

  it('answers 429 to the 6th failed login of one username from one address; its owner elsewhere still gets in', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++)
      statuses.push((await json('POST', '/api/login', { username, password: `wrong-${i}` }, { from: from(1) })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await json('POST', '/api/login', { username, password }, { from: from(1) });
    expect([sixth.status, errorMessage(sixth)]).toEqual([429, expect.stringMatching(/too many/i)]);
    // Failures spread over other addresses (an attacker rotating them, in any case of the name) do not lock it
    // either: the owner waits a moment, then signs in.
    for (let i = 2; i <= 6; i++)
      expect((await json('POST', '/api/login', { username: username.toUpperCase(), password: 'nope' }, { from: from(i) })).status).toBe(401);
    const owner = await json('POST', '/api/login', { username, password }, { from: from(9) });
    expect(owner.status).toBe(200);
    // Other accounts are not held back by it.
    expect((await json('POST', '/api/login', { username: 'admin', password: stack.adminPassword })).status).toBe(200);
  });

  it('answers 429 after 5 failed logins from one address, whatever usernames and X-Forwarded-For it sends', async () => {
    const address = `127.${net}.78.1`;
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await json(
        'POST',
        '/api/login',
        { username: `${tag}-nobody-${i}`, password: 'wrong' },
        { from: address, headers: trustProxy ? {} : { 'x-forwarded-for': `198.51.100.${i}` } },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await json(
      'POST',
      '/api/login',
      { username: `${tag}-nobody-6`, password: 'wrong' },
      { from: address, headers: trustProxy ? {} : { 'x-forwarded-for': '198.51.100.99' } },
    );
    expect([sixth.status, errorMessage(sixth)]).toEqual([429, expect.stringMatching(/too many/i)]);
  });
});
