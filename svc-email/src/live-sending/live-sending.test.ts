import { call } from '@act/service-kit/testing';
import { startFakeResend, type FakeResend, type SentEmail } from '@act/testing';
import {
  contactCreated,
  dropDb,
  sleep,
  startEmail,
  waitFor,
  waitUntilSequencesEnded,
  type EmailUnderTest,
  HOOK_TIMEOUT_MS,
} from '../test/helpers';
import { verifyUnsubscribeToken } from '../unsubscribe/token';

const HOUR_MS = 1_000;
const PUBLIC_URL = 'https://carts.example.com';
const SECRET = 'live-test-secret';

function liveEnv(fake: FakeResend): Record<string, string> {
  return {
    EMAIL_LIVE_SENDING: 'true',
    RESEND_BASE_URL: fake.url,
    RESEND_API_KEY: 're_live',
    RESEND_FROM: 'Shop <shop@example.com>',
    EMAIL_DELAY_HOUR_MS: String(HOUR_MS),
    PUBLIC_URL,
    UNSUBSCRIBE_SECRET: SECRET,
    UNSUBSCRIBE_MAILTO: '',
  };
}

type Log = { contact_id: string; email: string; status: string; message: string };

async function setUpCampaign(
  email: EmailUnderTest,
  funnelId: string,
  templates: { name: string; template_order: number; delay_hours: number; active?: boolean; html?: string }[],
  integrationFields: Record<string, unknown> = {},
) {
  const campaign = (await email.api('POST', '/api/email/campaigns', { body: { name: `Campaign ${funnelId}` } }))
    .body as { id: number };
  for (const t of templates) {
    const r = await email.api('POST', '/api/resend/templates', {
      body: {
        campaign_id: campaign.id,
        name: t.name,
        subject: `${t.name} for {{contactEmail}}`,
        from_name: 'Cart Team',
        html_content: t.html ?? `<h1>${t.name}</h1><p><a href="{{recoveryUrl}}">Complete Your Purchase</a></p>`,
        template_order: t.template_order,
        delay_hours: t.delay_hours,
        active: t.active ?? true,
      },
    });
    expect(r.status).toBe(201);
  }
  const integration = await email.api('POST', '/api/webhook-integrations', {
    body: { name: funnelId, funnel_id: funnelId, reminder_delay: 1, campaign_id: campaign.id, ...integrationFields },
  });
  expect(integration.status).toBe(201);
  return campaign.id;
}

describe('live campaign sending', () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('live', liveEnv(fake));
    await setUpCampaign(
      email,
      'seq-funnel',
      [
        { name: 'First', template_order: 1, delay_hours: 0 },
        { name: 'Second', template_order: 2, delay_hours: 1 },
        { name: 'Paused', template_order: 3, delay_hours: 0, active: false },
        { name: 'Fourth', template_order: 4, delay_hours: 2 },
      ],
      { checkout_fallback_url: 'https://shop.example.com/cart' },
    );
    // No fallback link: a template that needs the checkout link is skipped for a contact without one.
    await setUpCampaign(email, 'nolink-funnel', [
      { name: 'Needs link', template_order: 1, delay_hours: 0 },
      { name: 'No link needed', template_order: 2, delay_hours: 0, html: '<p>Questions? Reply to this email.</p>' },
    ]);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  const logsFor = async (contactId: string) =>
    ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id === contactId);
  const subjects = (sent: SentEmail[]) => sent.map((e) => e.subject.split(' for ')[0]);

  it('sends the active templates in template_order, the first at remind_at, each next delay_hours after the previous', async () => {
    const start = Date.now();
    const r = await email.api('POST', '/api/webhook', {
      body: contactCreated('L-1', 'Buyer.One@example.com', 'seq-funnel', {
        checkout_url: 'https://shop.example.com/checkout/abc?x=1&y=2',
      }),
      user: null,
    });
    expect(r.status).toBe(200);
    const sent = await waitFor(
      async () => (fake.emailsTo('Buyer.One@example.com').length >= 3 ? fake.emailsTo('Buyer.One@example.com') : null),
      { timeoutMs: 15_000, what: 'three emails' },
    );
    expect(subjects(sent)).toEqual(['First', 'Second', 'Fourth']);
    // remind_at is 1 s (reminder delay 1 minute at 1 s a minute) after the webhook; then +1 h and +2 h (1 s an hour).
    // No upper bound: how late a step may be on a loaded machine is a figure of bench/reminders.mjs and
    // bench/delivery.mjs, not of a unit test.
    const [a, b, d] = sent.map((e) => e.at);
    expect(a! - start).toBeGreaterThanOrEqual(900);
    expect(b! - a!).toBeGreaterThanOrEqual(HOUR_MS - 50);
    expect(d! - b!).toBeGreaterThanOrEqual(2 * HOUR_MS - 50);

    const first = sent[0]!;
    expect(first.from).toBe('"Cart Team" <shop@example.com>');
    expect(first.subject).toBe('First for Buyer.One@example.com');
    expect(first.html).toBe(
      '<h1>First</h1><p><a href="https://shop.example.com/checkout/abc?x=1&amp;y=2">Complete Your Purchase</a></p>',
    );
    expect(first.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const link = /^<(https:\/\/carts\.example\.com\/api\/unsubscribe\/one-click\?token=([^>]+))>$/.exec(
      first.headers['List-Unsubscribe']!,
    );
    expect(link).not.toBeNull();
    expect(verifyUnsubscribeToken(decodeURIComponent(link![2]!), SECRET)).toBe('buyer.one@example.com');
    expect(first.idempotencyKey).toMatch(/^act-email-[0-9a-f]{24}$/);

    // The positive control: the engine took the step after Fourth and found none (the row finished).
    expect((await waitUntilSequencesEnded(email, ['L-1'])).get('L-1')).toMatchObject({ state: 'finished', sent: 3 });
    expect(fake.emailsTo('Buyer.One@example.com')).toHaveLength(3);
    const logs = await logsFor('L-1');
    expect(logs.map((l) => l.status)).toEqual(['sent', 'sent', 'sent']);
    for (const e of sent)
      expect(logs.some((l) => l.message.includes(e.id) && l.message.includes(`"${subjects([e])[0]}"`))).toBe(true);
  });

  it('stops at purchase', async () => {
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-2', 'buyer.two@example.com', 'seq-funnel'),
      user: null,
    });
    const [first] = await waitFor(
      async () => (fake.emailsTo('buyer.two@example.com').length >= 1 ? fake.emailsTo('buyer.two@example.com') : null),
      { what: 'first email' },
    );
    // No recovery URL from the funnel: the integration's fallback link.
    expect(first!.html).toContain('href="https://shop.example.com/cart"');
    const p = await email.api('POST', '/api/webhook', {
      body: { event: 'purchase_created', funnel_id: 'seq-funnel', contact: { id: 'L-2' } },
      user: null,
    });
    expect(p.body.matched).toBe(1);
    // The positive control: the engine reached the Second step (due an hour after First) and stopped there.
    expect((await waitUntilSequencesEnded(email, ['L-2'])).get('L-2')).toMatchObject({ state: 'stopped', stop_reason: 'purchased' });
    expect(subjects(fake.emailsTo('buyer.two@example.com'))).toEqual(['First']);
  });

  it('skips (and logs) a template needing the checkout link when neither the funnel nor the integration has one; goes on with the next', async () => {
    await email.api('POST', '/api/webhook', { body: contactCreated('L-9', 'buyer.nine@example.com', 'nolink-funnel'), user: null });
    const [only] = await waitFor(async () => (fake.emailsTo('buyer.nine@example.com').length >= 1 ? fake.emailsTo('buyer.nine@example.com') : null), {
      what: 'the email of the template without a link',
    });
    expect(only!.subject).toBe('No link needed for buyer.nine@example.com');
    expect((await waitUntilSequencesEnded(email, ['L-9'])).get('L-9')).toMatchObject({ state: 'finished', sent: 1 });
    expect(fake.emailsTo('buyer.nine@example.com')).toHaveLength(1);
    expect(fake.emailsTo('buyer.nine@example.com').some((e) => e.html.includes('href=""'))).toBe(false);
    const logs = await logsFor('L-9');
    expect(logs.map((l) => l.status).sort()).toEqual(['sent', 'skipped_no_link']);
    expect(logs.find((l) => l.status === 'skipped_no_link')!.message).toBe(
      'Not sent "Needs link" (step 1) to buyer.nine@example.com: Skipped: no checkout link (the funnel sent none and the integration has no fallback link)',
    );
  });

  it('stops at unsubscribe through the List-Unsubscribe one-click POST', async () => {
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-3', 'buyer.three@example.com', 'seq-funnel'),
      user: null,
    });
    const [first] = await waitFor(
      async () =>
        fake.emailsTo('buyer.three@example.com').length >= 1 ? fake.emailsTo('buyer.three@example.com') : null,
      { what: 'first email' },
    );
    const url = new URL(/^<([^>]+)>/.exec(first!.headers['List-Unsubscribe']!)![1]!);
    expect(`${url.origin}`).toBe(PUBLIC_URL);
    // The mail client's POST, as the gateway forwards it (anonymous).
    const r = await call(email.svc.url, 'POST', url.pathname + url.search, {
      user: null,
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.body).toEqual({
      status: 'unsubscribed',
      message: 'You have been unsubscribed and will no longer receive these emails.',
    });
    // The positive control: the engine reached the Second step and stopped at the unsubscribe list.
    expect((await waitUntilSequencesEnded(email, ['L-3'])).get('L-3')).toMatchObject({ state: 'stopped', stop_reason: 'unsubscribed' });
    expect(subjects(fake.emailsTo('buyer.three@example.com'))).toEqual(['First']);
    const logs = await logsFor('L-3');
    expect(logs.map((l) => l.status).sort()).toEqual(['sent', 'unsubscribed']);
    expect(logs.find((l) => l.status === 'unsubscribed')?.message).toBe(
      'Not sent: buyer.three@example.com is on the unsubscribe list',
    );
  });

  it('an address unsubscribed before its reminder gets nothing (any case)', async () => {
    await email.api('POST', '/api/email-unsubscribes/quick-add', { body: { email: 'already.gone@example.com' } });
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-4', 'Already.Gone@Example.com', 'seq-funnel'),
      user: null,
    });
    const logs = await waitFor(async () => ((await logsFor('L-4')).length ? logsFor('L-4') : null), {
      what: 'the reminder log',
    });
    expect(logs.map((l) => l.status)).toEqual(['unsubscribed']);
    // The positive control: a contact of the same funnel arriving after L-4 (claimed in the same reminder batch or a
    // later one) gets its first email, which goes out at once, as L-4's would have.
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-4-control', 'still.here@example.com', 'seq-funnel'),
      user: null,
    });
    await waitFor(async () => fake.emailsTo('still.here@example.com').length >= 1, { what: "the control contact's first email" });
    expect(fake.emailsTo('Already.Gone@Example.com')).toHaveLength(0);
    // The contact says what happened: not Sent, and not an abandoned cart.
    type Row = { contact_id: string; status: string };
    const contact = await waitFor(
      async () => {
        const rows = (await email.api('GET', '/api/contacts')).body as Row[];
        const c = rows.find((r) => r.contact_id === 'L-4');
        return c?.status === 'unsubscribed' ? c : null;
      },
      { what: 'the contact shown as unsubscribed' },
    );
    expect(contact.status).toBe('unsubscribed');
    const abandoned = (await email.api('GET', '/api/contacts?page=1&pageSize=100&status=sent')).body as { items: Row[] };
    expect(abandoned.items.some((r) => r.contact_id === 'L-4')).toBe(false);
    const filtered = (await email.api('GET', '/api/contacts?page=1&pageSize=100&status=unsubscribed')).body as { items: Row[] };
    expect(filtered.items.map((r) => r.contact_id)).toContain('L-4');
  });

  it('provider failures are logged with the provider message; the sequence goes on', async () => {
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-5', 'reject.me@example.com', 'seq-funnel'),
      user: null,
    });
    const logs = await waitFor(
      async () => {
        const l = await logsFor('L-5');
        return l.length >= 3 ? l : null;
      },
      { timeoutMs: 15_000, what: 'three failed logs' },
    );
    expect(logs.map((l) => l.status)).toEqual(['failed', 'failed', 'failed']);
    expect(logs.map((l) => l.message).sort()).toEqual([
      'Failed to send "First" (step 1) to reject.me@example.com: Invalid `to` field: reject.me@example.com',
      'Failed to send "Fourth" (step 4) to reject.me@example.com: Invalid `to` field: reject.me@example.com',
      'Failed to send "Second" (step 2) to reject.me@example.com: Invalid `to` field: reject.me@example.com',
    ]);
  });

  it('an integration without a campaign (or with an inactive one) keeps the would_send log', async () => {
    await email.api('POST', '/api/webhook-integrations', {
      body: { name: 'plain', funnel_id: 'plain-funnel', reminder_delay: 1 },
    });
    const paused = (
      await email.api('POST', '/api/email/campaigns', { body: { name: 'Paused campaign', active: false } })
    ).body as { id: number };
    await email.api('POST', '/api/resend/templates', {
      body: { campaign_id: paused.id, name: 'T', html_content: '<p>t</p>' },
    });
    await email.api('POST', '/api/webhook-integrations', {
      body: { name: 'paused', funnel_id: 'paused-funnel', reminder_delay: 1, campaign_id: paused.id },
    });
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-6', 'plain@example.com', 'plain-funnel'),
      user: null,
    });
    await email.api('POST', '/api/webhook', {
      body: contactCreated('L-7', 'paused@example.com', 'paused-funnel'),
      user: null,
    });
    for (const [id, address] of [
      ['L-6', 'plain@example.com'],
      ['L-7', 'paused@example.com'],
    ] as const) {
      const logs = await waitFor(async () => ((await logsFor(id)).length ? logsFor(id) : null), { what: `${id} log` });
      expect(logs).toEqual([
        expect.objectContaining({
          status: 'would_send',
          message: `Abandoned cart reminder would be sent to ${address}`,
        }),
      ]);
      expect(fake.emailsTo(address)).toHaveLength(0);
    }
  });
});

describe('live campaign sending with two instances', () => {
  let fake: FakeResend;
  let a: EmailUnderTest;
  let b: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    a = await startEmail('live2', liveEnv(fake));
    b = await startEmail('live2', { ...liveEnv(fake), MONGODB_DB: a.db, NATS_PREFIX: a.prefix });
    await setUpCampaign(
      a,
      'pair-funnel',
      [
        { name: 'One', template_order: 1, delay_hours: 0 },
        { name: 'Two', template_order: 2, delay_hours: 0.5 },
      ],
      { checkout_fallback_url: 'https://shop.example.com/cart' },
    );
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await b?.svc.stop();
    await a?.svc.stop();
    if (a) await dropDb(a.db);
    await fake?.close();
  });

  it('each (contact, template) is sent exactly once', async () => {
    const n = 12;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        (i % 2 ? a : b).api('POST', '/api/webhook', {
          body: contactCreated(`P-${i}`, `pair${i}@example.com`, 'pair-funnel'),
          user: null,
        }),
      ),
    );
    // Both instances sweep too: "Process Missed Emails" on both at once must not double anything.
    await sleep(1_200);
    await Promise.all([
      a.api('POST', '/api/test/check-abandoned-carts'),
      b.api('POST', '/api/test/check-abandoned-carts'),
    ]);
    await waitFor(async () => fake.emails.length >= 2 * n, { timeoutMs: 20_000, what: 'every email' });
    // The positive control: every sequence finished (both steps taken, by whichever instance).
    const rows = await waitUntilSequencesEnded(a, Array.from({ length: n }, (_, i) => `P-${i}`));
    expect([...rows.values()].every((r) => r.state === 'finished' && r.sent === 2)).toBe(true);
    // Each email recorded once, whether it went alone or in a batch (a batch call holds several).
    expect(fake.emails.filter((e) => e.to.some((t) => t.startsWith('pair')))).toHaveLength(2 * n);
    for (let i = 0; i < n; i++)
      expect(fake.emailsTo(`pair${i}@example.com`).map((e) => e.subject.split(' for ')[0])).toEqual(['One', 'Two']);
  });
});

describe("Resend's batch endpoint", () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('batch', { ...liveEnv(fake), RESEND_BATCH_LINGER_MS: '150', RESEND_MAX_RPS: '50', RESEND_RETRY_BASE_MS: '100' });
    await setUpCampaign(email, 'batch-funnel', [{ name: 'Batched', template_order: 1, delay_hours: 0 }], {
      checkout_fallback_url: 'https://shop.example.com/cart',
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  it('sends emails falling due together in a few batch calls, each once with its own List-Unsubscribe; a refused address fails alone; a 429 is retried under the same key', async () => {
    const n = 40;
    const address = (i: number) => (i === 7 ? `reject-${i}@example.com` : `batch${i}@example.com`);
    fake.failNext(429, 1, { retryAfterSec: 0 });
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        email.api('POST', '/api/webhook', { body: contactCreated(`B-${i}`, address(i), 'batch-funnel'), user: null }),
      ),
    );
    const delivered = () => fake.emails.filter((e) => e.to[0]!.startsWith('batch'));
    await waitFor(async () => (delivered().length >= n - 1 ? true : null), { timeoutMs: 20_000, what: 'every batched email' });
    // The positive control: every sequence (one step) finished, the refused one included.
    await waitUntilSequencesEnded(email, Array.from({ length: n }, (_, i) => `B-${i}`));
    expect(delivered()).toHaveLength(n - 1);
    expect(new Set(delivered().map((e) => e.to[0])).size).toBe(n - 1);
    const calls = fake.requests.filter((r) => r.method === 'POST' && (r.path === '/emails' || r.path === '/emails/batch'));
    const batches = calls.filter((r) => r.path === '/emails/batch');
    expect(batches.length).toBeGreaterThanOrEqual(1);
    // One call per email (or more, with the retry) without batching. How many batches exactly depends on how the
    // 40 posts spread in time: on a loaded 2-core machine (load 18) they arrived over several lingers (10 calls).
    expect(calls.length).toBeLessThan(n / 2);
    expect(batches.every((r) => /^act-batch-[0-9a-f]{48}$/.test(r.headers['idempotency-key'] ?? ''))).toBe(true);
    // The first call was refused (429) and went again with the same idempotency key and body: a retry, never a
    // second sending of the same emails.
    const [first, ...rest] = calls;
    const again = rest.find((r) => r.path === first!.path && r.headers['idempotency-key'] === first!.headers['idempotency-key']);
    expect(again?.body).toEqual(first!.body);
    // Per-email headers survive the batch: each its own one-click link.
    for (const e of delivered()) {
      const link = /token=([^>]+)>$/.exec(e.headers['List-Unsubscribe']!);
      expect(verifyUnsubscribeToken(decodeURIComponent(link![1]!), SECRET)).toBe(e.to[0]!.toLowerCase());
    }
    const logs = ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => l.contact_id.startsWith('B-'));
    expect(logs.filter((l) => l.status === 'sent')).toHaveLength(n - 1);
    expect(logs.find((l) => l.contact_id === 'B-7')).toMatchObject({ status: 'failed' });
    expect(logs.find((l) => l.contact_id === 'B-7')!.message).toContain('Invalid `to` field: reject-7@example.com');
  });
});

describe('a batch Resend took but never answered', () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  beforeAll(async () => {
    fake = await startFakeResend();
    // Emails falling due together wait up to a second to share a call; a call unanswered for 1.5 s is given up.
    // The poller looks at the end of the second its rows fall due in (REMINDER_DUE_SCAN_MS): the three contacts,
    // stored a few milliseconds apart, are due within one look (a look holding the hung call looks again only after
    // its timeout, so a third contact due in the next look would leave in a call of its own).
    email = await startEmail('batch_hang', {
      ...liveEnv(fake),
      REMINDER_DUE_SCAN_MS: '1000',
      RESEND_BATCH_LINGER_MS: '1000',
      RESEND_MAX_RPS: '50',
      RESEND_RETRY_BASE_MS: '100',
      RESEND_TIMEOUT_MS: '1500',
    });
    await setUpCampaign(email, 'hang-funnel', [{ name: 'Once', template_order: 1, delay_hours: 0 }], {
      checkout_fallback_url: 'https://shop.example.com/cart',
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  it('times out, retries under the same Idempotency-Key, and each email is delivered once', async () => {
    const ids = ['H-1', 'H-2', 'H-3'];
    const address = (id: string) => `${id.toLowerCase()}@example.com`;
    fake.acceptThenHang(1);
    await Promise.all(ids.map((id) => email.api('POST', '/api/webhook', { body: contactCreated(id, address(id), 'hang-funnel'), user: null })));
    await waitUntilSequencesEnded(email, ids, { timeoutMs: 30_000 });

    const calls = fake.requests.filter((r) => r.method === 'POST' && (r.path === '/emails' || r.path === '/emails/batch'));
    const [first, ...rest] = calls;
    // The call Resend took without answering was a batch of the three; the service gave up on it (its timeout) and
    // sent the same request again, same key and body, which Resend answers from its idempotency record.
    expect(fake.hungAfterAccept).toBe(1);
    expect(first).toMatchObject({ path: '/emails/batch' });
    expect((first!.body as unknown[]).length).toBe(ids.length);
    const key = first!.headers['idempotency-key'];
    expect(key).toMatch(/^act-batch-[0-9a-f]{48}$/);
    const retries = rest.filter((r) => r.headers['idempotency-key'] === key);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.every((r) => JSON.stringify(r.body) === JSON.stringify(first!.body))).toBe(true);
    expect(retries[0]!.at - first!.at).toBeGreaterThanOrEqual(1_400);
    expect(fake.idempotentReplays).toBe(retries.length);
    // Delivered once each: the fake's records of what Resend sent.
    for (const id of ids) expect([id, fake.emailsTo(address(id)).length]).toEqual([id, 1]);
    expect(fake.emails).toHaveLength(ids.length);
    // And logged as sent once each, none failed.
    const logs = ((await email.api('GET', '/api/email-logs')).body as Log[]).filter((l) => ids.includes(l.contact_id));
    expect(logs.map((l) => [l.contact_id, l.status]).sort()).toEqual(ids.map((id) => [id, 'sent']));
  });
});
