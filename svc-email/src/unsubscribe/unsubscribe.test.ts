import { AckPolicy, DeliverPolicy } from 'nats';
import { call, testUser } from '@act/service-kit/testing';
import { dropDb, natsConnect, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';
import { signUnsubscribeToken, unsubscribeSecret } from './token';

const SECRET = 'unsubscribe-test-secret';

describe('unsubscribe list', () => {
  let email: EmailUnderTest;
  let ipSeq = 0;
  beforeAll(async () => {
    email = await startEmail('unsubscribe', {
      UNSUBSCRIBE_SECRET: SECRET,
      UNSUBSCRIBE_RATE_LIMIT: '5',
      PUBLIC_URL: 'https://carts.example.com',
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
  });

  /** A public call as the gateway makes it (identity "nobody"), from its own client address (the limit is per address). */
  const pub = (
    method: string,
    path: string,
    opts: { body?: unknown; raw?: string; ip?: string; headers?: Record<string, string> } = {},
  ) =>
    call(email.svc.url, method, path, {
      user: null,
      body: opts.body,
      raw: opts.raw,
      headers: { 'x-forwarded-for': opts.ip ?? `10.0.0.${++ipSeq}`, ...opts.headers },
    });

  it('public page flow: check, unsubscribe, already-unsubscribed, case-insensitive', async () => {
    expect((await pub('GET', '/api/unsubscribe?email=Shopper%40Example.com')).body).toEqual({
      status: 'subscribed',
      message: 'This email address is subscribed.',
    });
    const r = await pub('POST', '/api/unsubscribe', {
      body: { email: 'Shopper@Example.com', reason: 'Too many emails' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'unsubscribed',
      message: 'You have been unsubscribed and will no longer receive these emails.',
    });
    expect((await pub('GET', '/api/unsubscribe?email=shopper%40example.COM')).body).toEqual({
      status: 'already-unsubscribed',
      message: 'This email address is already unsubscribed.',
    });
    expect((await pub('POST', '/api/unsubscribe', { body: { email: 'SHOPPER@example.com' } })).body).toEqual({
      status: 'already-unsubscribed',
      message: 'This email address is already unsubscribed.',
    });
    const list = (await email.api('GET', '/api/direct-unsubscribes')).body as {
      email: string;
      reason: string | null;
    }[];
    expect(list.filter((e) => e.email === 'shopper@example.com')).toEqual([
      {
        id: expect.any(Number),
        email: 'shopper@example.com',
        unsubscribed_at: expect.any(String),
        reason: 'Too many emails',
      },
    ]);
  });

  it('public calls validate their input and answer nothing more than the spec', async () => {
    expect((await pub('GET', '/api/unsubscribe')).body).toEqual({ error: 'Email required' });
    expect((await pub('GET', '/api/unsubscribe?email=nope')).body).toEqual({
      error: 'Please enter a valid email address',
    });
    expect((await pub('GET', '/api/unsubscribe?email=a@b.co&email=c@d.co')).status).toBe(400);
    expect((await pub('POST', '/api/unsubscribe', { body: { email: { $ne: null } } })).body).toEqual({
      error: 'Email required',
    });
    expect((await pub('POST', '/api/unsubscribe', { raw: '{bad' })).body).toEqual({ error: 'Invalid JSON body' });
    const r = await pub('GET', '/api/unsubscribe?email=never-seen%40example.com');
    expect(Object.keys(r.body).sort()).toEqual(['message', 'status']);
  });

  it('rate-limits public calls per client address', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 5; i++)
      expect((await pub('GET', '/api/unsubscribe?email=rl%40example.com', { ip })).status).toBe(200);
    const limited = await pub('GET', '/api/unsubscribe?email=rl%40example.com', { ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests, please try again later' });
    expect((await pub('POST', '/api/unsubscribe', { ip, body: { email: 'rl@example.com' } })).status).toBe(429);
    expect((await pub('GET', '/api/unsubscribe?email=rl%40example.com')).status).toBe(200);
  });

  it('RFC 8058 one-click POST with a signed token, no session; GET only leads to the confirm page', async () => {
    const token = signUnsubscribeToken('OneClick@Example.com', SECRET);
    const r = await pub('POST', `/api/unsubscribe/one-click?token=${encodeURIComponent(token)}`, {
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'unsubscribed',
      message: 'You have been unsubscribed and will no longer receive these emails.',
    });
    expect(
      (
        await pub('POST', `/api/unsubscribe/one-click?token=${encodeURIComponent(token)}`, {
          raw: 'List-Unsubscribe=One-Click',
        })
      ).body.status,
    ).toBe('already-unsubscribed');
    expect((await pub('GET', '/api/unsubscribe?email=oneclick%40example.com')).body.status).toBe(
      'already-unsubscribed',
    );

    const forged = signUnsubscribeToken('victim@example.com', 'wrong-secret');
    const bad = await pub('POST', `/api/unsubscribe/one-click?token=${encodeURIComponent(forged)}`, {
      raw: 'List-Unsubscribe=One-Click',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid unsubscribe link' });
    expect((await pub('POST', '/api/unsubscribe/one-click')).status).toBe(400);
    expect((await pub('GET', '/api/unsubscribe?email=victim%40example.com')).body.status).toBe('subscribed');

    const res = await fetch(
      `${email.svc.url}/api/unsubscribe/one-click?token=${encodeURIComponent(signUnsubscribeToken('Reader@Example.com', SECRET))}`,
      {
        redirect: 'manual',
        headers: (await import('@act/service-kit/testing')).gatewayHeaders(null),
      },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://carts.example.com/unsubscribe?email=reader%40example.com');
    expect((await pub('GET', '/api/unsubscribe?email=reader%40example.com')).body.status).toBe('subscribed');
    // The default secret is derived, not the identity secret itself.
    expect(unsubscribeSecret(undefined, 'x')).not.toBe('x');
  });

  it('admin list, quick-add (default reason, Email required), remove; 403 for users, 401 signed out', async () => {
    const add = await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'Added@Example.com' } });
    expect(add.status).toBe(201);
    expect(add.body).toEqual({
      success: true,
      status: 'unsubscribed',
      message: 'Email unsubscribed',
      entry: {
        id: expect.any(Number),
        email: 'added@example.com',
        unsubscribed_at: expect.any(String),
        reason: 'Manually added by admin',
      },
    });
    const again = await email.api('POST', '/api/email-unsubscribes/quick-add', {
      body: { email: 'ADDED@example.com', reason: 'dup' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      success: true,
      status: 'already-unsubscribed',
      entry: { id: add.body.entry.id, reason: 'Manually added by admin' },
    });
    expect(
      (
        await email.api('POST', '/api/email-unsubscribes/quick-add', {
          body: { email: 'x@y.co', reason: 'Asked by phone' },
        })
      ).body.entry.reason,
    ).toBe('Asked by phone');
    expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { body: {} })).body).toEqual({
      error: 'Email required',
    });
    expect((await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: '' } })).body).toEqual({
      error: 'Email required',
    });

    const list = (await email.api('GET', '/api/direct-unsubscribes')).body as { id: number; email: string }[];
    expect(list[0]).toMatchObject({ email: 'x@y.co' });
    expect(list.map((e) => e.email)).toContain('added@example.com');

    const removed = await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: add.body.entry.id } });
    expect(removed.body).toEqual({ success: true, message: 'Email removed', entry: add.body.entry });
    expect(
      (await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: add.body.entry.id } })).status,
    ).toBe(404);
    expect((await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: 'x' } })).status).toBe(400);
    expect((await pub('GET', '/api/unsubscribe?email=added%40example.com')).body.status).toBe('subscribed');

    for (const [method, path, body] of [
      ['GET', '/api/direct-unsubscribes', undefined],
      ['POST', '/api/email-unsubscribes/quick-add', { email: 'u@x.co' }],
      ['POST', '/api/email-unsubscribes/remove', { id: 1 }],
    ] as const) {
      expect(await email.api(method, path, { body, user: testUser })).toMatchObject({
        status: 403,
        body: { error: 'Admin access required' },
      });
      expect((await email.api(method, path, { body, user: null })).status).toBe(401);
    }
  });

  it('publishes unsubscribe.email.added and .removed through the outbox', async () => {
    const nc = await natsConnect();
    try {
      const add = await email.api('POST', '/api/email-unsubscribes/quick-add', {
        body: { email: 'events@example.com', reason: 'r' },
      });
      await email.api('POST', '/api/email-unsubscribes/remove', { body: { id: add.body.entry.id } });
      const jsm = await nc.jetstreamManager();
      const stream = `${email.prefix}FUNNEL`;
      const name = `unsub_check_${process.pid}`;
      await waitFor(async () => (await jsm.streams.info(stream)).state.messages >= 2, { what: 'events in the stream' });
      await jsm.consumers.add(stream, {
        durable_name: name,
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.All,
        filter_subject: `${email.prefix}unsubscribe.>`,
      });
      const consumer = await nc.jetstream().consumers.get(stream, name);
      const got: { subject: string; data: Record<string, unknown> }[] = [];
      await waitFor(
        async () => {
          const batch = await consumer.fetch({ max_messages: 50, expires: 1_000 });
          for await (const m of batch)
            got.push({ subject: m.subject.slice(email.prefix.length), data: JSON.parse(m.string()) });
          return got.some((g) => g.subject === 'unsubscribe.email.removed' && g.data.email === 'events@example.com');
        },
        { what: 'the removed event' },
      );
      expect(
        got.find((g) => g.subject === 'unsubscribe.email.added' && g.data.email === 'events@example.com')?.data,
      ).toMatchObject({ email: 'events@example.com', reason: 'r', source: 'svc-email', eventId: expect.any(String) });
    } finally {
      await nc.close();
    }
  });
});
