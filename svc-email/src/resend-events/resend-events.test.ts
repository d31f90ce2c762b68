/**
 * Resend's delivery events: Svix-signed webhooks verified with Svix's library, moving the email's log
 * row forward, a bounce or a complaint suppressing the address. Real campaign sends through the fake Resend, the
 * events signed as Resend signs them, posted to the service over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { Webhook } from 'svix';
import { startFakeResend, type FakeResend } from '@act/testing';
import { SUPPRESSED_BOUNCE } from './service';
import { contactCreated, dropDb, MONGODB_URI, startEmail, waitFor, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const resendSigner = new Webhook(SECRET);

type Log = { contact_id: string; email: string; status: string; delivery: string | null };

describe("Resend's signed delivery events", () => {
  let fake: FakeResend;
  let email: EmailUnderTest;
  let n = 0;
  beforeAll(async () => {
    fake = await startFakeResend();
    email = await startEmail('resend_events', {
      EMAIL_LIVE_SENDING: 'true',
      RESEND_BASE_URL: fake.url,
      RESEND_API_KEY: 're_live',
      RESEND_FROM: 'Shop <shop@example.com>',
      RESEND_WEBHOOK_SECRET: SECRET,
      EMAIL_DELAY_HOUR_MS: '1000',
      EMAIL_SEQUENCE_SCAN_MS: '200',
    });
    const campaign = (await email.api('POST', '/api/email/campaigns', { body: { name: 'Events' } })).body as { id: number };
    await email.api('POST', '/api/resend/templates', {
      body: { campaign_id: campaign.id, name: 'Only', subject: 'Hi', from_name: 'Shop', html_content: '<p>Hi</p>', template_order: 1, delay_hours: 0 },
    });
    await email.api('POST', '/api/webhook-integrations', {
      body: { name: 'events', funnel_id: 'events-funnel', reminder_delay: 1, campaign_id: campaign.id },
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await email?.svc.stop();
    if (email) await dropDb(email.db);
    await fake?.close();
  });

  /** A contact whose reminder went out through Resend: its address and Resend's id for the email. */
  async function sent(address: string): Promise<string> {
    await email.api('POST', '/api/webhook', { body: contactCreated(`ev-${address}`, address, 'events-funnel'), user: null });
    const [mail] = await waitFor(async () => (fake.emailsTo(address).length ? fake.emailsTo(address) : null), {
      timeoutMs: 15_000,
      what: `the email to ${address}`,
    });
    // The fake records the email before svc-email has written its log row.
    await waitFor(async () => !!(await logOf(address)), { timeoutMs: 10_000, what: `the log row of ${address}` });
    return mail!.id;
  }

  /** Posts an event as Resend does: the JSON body, signed by Svix with the endpoint's secret. */
  function post(type: string, emailId: string, to: string, extra: Record<string, unknown> = {}, signer = resendSigner, id = `msg_${++n}`) {
    const body = JSON.stringify({ type, created_at: new Date().toISOString(), data: { email_id: emailId, to: [to], ...extra } });
    const at = new Date();
    return email.api('POST', '/api/resend/webhooks', {
      raw: body,
      user: null,
      headers: {
        'content-type': 'application/json',
        'svix-id': id,
        'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
        'svix-signature': signer.sign(id, at, body),
      },
    });
  }

  const logOf = async (address: string) =>
    ((await email.api('GET', '/api/email-logs')).body as Log[]).find((l) => l.email === address && l.status === 'sent');
  const suppressed = async () =>
    (await email.api('GET', '/api/direct-unsubscribes')).body as { email: string; reason: string | null }[];

  it('moves the log row forward (delivered, opened), never back, and ignores a redelivered event', async () => {
    const id = await sent('reader@example.com');
    expect((await logOf('reader@example.com'))?.delivery).toBeNull();
    expect((await post('email.delivered', id, 'reader@example.com')).status).toBe(200);
    expect((await logOf('reader@example.com'))?.delivery).toBe('delivered');
    const opened = await post('email.opened', id, 'reader@example.com', {}, resendSigner, 'msg_opened');
    expect(opened.body).toEqual({ status: 'ok', delivery: 'opened' });
    // A late delivery_delayed does not move it back; the same svix-id again does nothing.
    await post('email.delivery_delayed', id, 'reader@example.com');
    expect((await logOf('reader@example.com'))?.delivery).toBe('opened');
    const again = await post('email.opened', id, 'reader@example.com', {}, resendSigner, 'msg_opened');
    expect(again.body).toEqual({ status: 'duplicate', delivery: null });
  });

  it('a hard bounce and a spam complaint put the address on the unsubscribe list (suppressed); a transient bounce does not', async () => {
    const bounced = await sent('gone@example.com');
    await post('email.bounced', bounced, 'gone@example.com', { bounce: { type: 'Permanent', subType: 'General', message: 'No such user' } });
    expect((await logOf('gone@example.com'))?.delivery).toBe('bounced');
    const complained = await sent('angry@example.com');
    await post('email.complained', complained, 'angry@example.com');
    const soft = await sent('full@example.com');
    await post('email.bounced', soft, 'full@example.com', { bounce: { type: 'Transient', subType: 'MailboxFull' } });
    const list = await suppressed();
    expect(list.find((u) => u.email === 'gone@example.com')?.reason).toBe('Suppressed: the address bounced (reported by Resend)');
    expect(list.find((u) => u.email === 'angry@example.com')?.reason).toBe(
      'Suppressed: the recipient marked the email as spam (reported by Resend)',
    );
    expect(list.some((u) => u.email === 'full@example.com')).toBe(false);
    // Never mailed again: a new contact with the bounced address gets no email.
    await email.api('POST', '/api/webhook', { body: contactCreated('ev-gone-2', 'gone@example.com', 'events-funnel'), user: null });
    await waitFor(
      async () =>
        ((await email.api('GET', '/api/email-logs')).body as Log[]).some((l) => l.email === 'gone@example.com' && l.status === 'unsubscribed'),
      { timeoutMs: 15_000, what: 'the suppressed address logged as unsubscribed' },
    );
    expect(fake.emailsTo('gone@example.com')).toHaveLength(1);
  });

  it('a bounce whose suppression failed to be written is applied when Resend retries the same svix-id', async () => {
    const id = await sent('lost@example.com');
    // A real write failure: the unsubscribe list's ids taken ahead of its counter (as after restoring an older
    // backup of the counters), so inserting the suppression fails on the unique id index whatever id comes next.
    const client = await MongoClient.connect(MONGODB_URI);
    try {
      const db = client.db(email.db);
      const unsubscribes = db.collection<{ id: number }>('email_unsubscribes');
      const counter = await db.collection<{ _id: string; seq: number }>('counters').findOne({ _id: 'email_unsubscribes' });
      const used = new Set((await unsubscribes.find({}, { projection: { id: 1 } }).toArray()).map((u) => u.id));
      // Every id the service holds in memory (at most the counter) and its next block of 20.
      const blockers = [];
      for (let n = 1; n <= (counter?.seq ?? 0) + 20; n++) {
        if (!used.has(n)) blockers.push({ id: n, email: `blocker-${n}@example.invalid`, unsubscribed_at: new Date(), reason: 'test', source: 'admin' });
      }
      await unsubscribes.insertMany(blockers);
      const svixId = 'msg_bounce_retried';
      const first = await post('email.bounced', id, 'lost@example.com', { bounce: { type: 'Permanent' } }, resendSigner, svixId);
      // Not a 2xx (the error middleware answers the duplicate key as 409): Svix retries any other answer.
      expect(first.status).toBeGreaterThanOrEqual(400);
      expect((await suppressed()).some((u) => u.email === 'lost@example.com')).toBe(false);
      // The database is whole again; Resend retries the event (same svix-id, new timestamp and signature).
      await unsubscribes.deleteMany({ email: /^blocker-/ });
      const retry = await post('email.bounced', id, 'lost@example.com', { bounce: { type: 'Permanent' } }, resendSigner, svixId);
      expect(retry).toMatchObject({ status: 200, body: { status: 'ok', delivery: 'bounced' } });
      expect((await suppressed()).find((u) => u.email === 'lost@example.com')?.reason).toBe(SUPPRESSED_BOUNCE);
      // Applied once: a third delivery of it is a duplicate.
      const third = await post('email.bounced', id, 'lost@example.com', { bounce: { type: 'Permanent' } }, resendSigner, svixId);
      expect(third.body).toEqual({ status: 'duplicate', delivery: null });
    } finally {
      await client.close();
    }
  });

  it('refuses a wrong, missing or stale signature with 401 and changes nothing', async () => {
    const id = await sent('safe@example.com');
    const forger = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    const wrong = await post('email.complained', id, 'safe@example.com', {}, forger);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatch(/^Invalid Resend webhook signature/);
    const missing = await email.api('POST', '/api/resend/webhooks', {
      raw: JSON.stringify({ type: 'email.complained', data: { email_id: id, to: ['safe@example.com'] } }),
      user: null,
      headers: { 'content-type': 'application/json' },
    });
    expect(missing.status).toBe(401);
    const body = JSON.stringify({ type: 'email.complained', data: { email_id: id, to: ['safe@example.com'] } });
    const old = new Date(Date.now() - 60 * 60_000);
    const stale = await email.api('POST', '/api/resend/webhooks', {
      raw: body,
      user: null,
      headers: { 'svix-id': 'msg_old', 'svix-timestamp': String(Math.floor(old.getTime() / 1000)), 'svix-signature': resendSigner.sign('msg_old', old, body) },
    });
    expect(stale.status).toBe(401);
    expect((await suppressed()).some((u) => u.email === 'safe@example.com')).toBe(false);
    expect((await logOf('safe@example.com'))?.delivery).toBeNull();
  });
});
