// Twilio's callbacks through the gateway's public URL, signed the way Twilio signs them (X-Twilio-Signature: the
// auth token's HMAC of the URL and the sorted form fields, made here with the real `twilio` package): status
// callbacks move an SMS log forward, inbound STOP / START opt a phone out and back in. Badly signed ones (no
// signature, another token, another URL, a field changed after signing) are refused and change nothing.
import twilio from 'twilio';
import { MongoClient } from 'mongodb';
import type { Browser } from 'playwright-core';
import type { SmsCampaign, SmsContact, SmsIntegration, SmsLog } from '@act/contracts/src/sms-api';
import type { Paged } from '@act/contracts/src/email-api';
import { launchBrowser, readStack } from '../../infra/e2e/browser';
import { api, openSession, postSmsWebhook, uid, type Session } from './helpers';

const stack = readStack();
const CALLBACK_URL = `${stack.url}/api/twilio/webhooks`;

function token(): string {
  if (!stack.twilioAuthToken) throw new Error('the stack file has no twilioAuthToken (infra/jest/e2e-setup.mjs)');
  return stack.twilioAuthToken;
}

/** Posts a form-encoded callback to the gateway; `signature` overrides the one Twilio would send. */
async function callback(
  params: Record<string, string>,
  {
    signature,
    authToken = token(),
    signedUrl = CALLBACK_URL,
  }: { signature?: string | null; authToken?: string; signedUrl?: string } = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const sig = signature === undefined ? twilio.getExpectedTwilioSignature(authToken, signedUrl, params) : signature;
  if (sig !== null) headers['x-twilio-signature'] = sig;
  const res = await fetch(CALLBACK_URL, { method: 'POST', headers, body: new URLSearchParams(params).toString() });
  return { status: res.status, text: await res.text() };
}

const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

describe('Twilio callbacks through the gateway', () => {
  let browser: Browser;
  let s: Session;
  let mongo: MongoClient;
  const id = uid();
  const sid = `SM${id.padEnd(32, '0').slice(0, 32)}`;
  const phone = `+1555${String(Date.now()).slice(-7)}`;
  const logId = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);

  async function logOf(): Promise<SmsLog | undefined> {
    const page = await api<Paged<SmsLog>>(s.page, 'GET', `/api/sms-logs?page=1&search=${sid}`);
    return page.items.find((l) => l.id === logId);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
    // The stack sends nothing (no account SID), so the message Twilio reports on is put where svc-sms keeps
    // its logs, as the sender would have left it: queued, with Twilio's message SID.
    mongo = await new MongoClient(stack.mongoUri!, { serverSelectionTimeoutMS: 5_000 }).connect();
    const now = new Date();
    await mongo
      .db(stack.databases!['svc-sms'])
      .collection('sms_logs')
      .insertOne({
        id: logId,
        phone,
        contact_id: null,
        contact_ref: null,
        integration_id: null,
        template_id: null,
        message: `Callback test ${id}`,
        sequence_order: null,
        status: 'queued',
        message_sid: sid,
        timestamp: now,
        updated_at: now,
        error_message: null,
      });
  });
  afterAll(async () => {
    await mongo?.close();
    await browser?.close();
  });

  it('refuses badly signed status callbacks and leaves the log as it was', async () => {
    const params = { MessageSid: sid, MessageStatus: 'failed', ErrorCode: '30003' };
    const bad: [string, Parameters<typeof callback>[1]][] = [
      ['no signature', { signature: null }],
      ['garbage', { signature: 'bm90LWEtc2lnbmF0dXJl' }],
      ['another auth token', { authToken: 'f'.repeat(32) }],
      [
        'another URL (the service behind the gateway)',
        { signedUrl: `http://127.0.0.1:${stack.ports['svc-sms']}/api/twilio/webhooks` },
      ],
    ];
    for (const [what, opts] of bad) {
      const r = await callback(params, opts);
      expect([what, r.status]).toEqual([what, 403]);
      expect(JSON.parse(r.text)).toEqual({ error: 'Invalid Twilio signature' });
    }
    // Signed, then a field changed on the way.
    const signed = twilio.getExpectedTwilioSignature(token(), CALLBACK_URL, { ...params, MessageStatus: 'sent' });
    expect((await callback(params, { signature: signed })).status).toBe(403);
    expect((await logOf())?.status).toBe('queued');
  });

  it('signed status callbacks move the log forward, never back; a failure keeps Twilio’s error', async () => {
    for (const status of ['sent', 'delivered']) {
      const r = await callback({
        MessageSid: sid,
        MessageStatus: status,
        AccountSid: 'AC00000000000000000000000000000000',
      });
      expect(r).toEqual({ status: 200, text: TWIML });
      expect((await logOf())?.status).toBe(status);
    }
    // A late "sent" (callbacks may arrive out of order) leaves it delivered.
    expect((await callback({ MessageSid: sid, MessageStatus: 'sent' })).status).toBe(200);
    expect((await logOf())?.status).toBe('delivered');

    // The SMS Logs screen shows what the callbacks did.
    await s.page.goto(`${s.url}/sms-logs`);
    await s.page.getByRole('textbox', { name: 'Search' }).fill(sid);
    const row = s.page.getByRole('row').filter({ hasText: `Callback test ${id}` });
    await row.getByText('Delivered', { exact: true }).waitFor();
  });

  it('a signed inbound STOP opts the phone out and stops its sequence; an unsigned START does not undo it; a signed START does', async () => {
    const funnel = `e2e-twilio-${id}`;
    const campaign = await api<SmsCampaign>(s.page, 'POST', '/api/sms-campaigns', {
      name: `Callbacks ${id}`,
      active: true,
    });
    await api<SmsIntegration>(s.page, 'POST', '/api/sms-webhook-integrations', {
      name: `Callbacks ${id}`,
      funnel_id: funnel,
      sms_campaign_id: campaign.id,
      reminder_delay: 30,
      active: true,
    });
    const contactId = `tw-${id}`;
    expect(
      (await postSmsWebhook({ event: 'contact_created', funnel_id: funnel, contact: { id: contactId, phone } })).status,
    ).toBe(200);
    const contact = async () =>
      (await api<Paged<SmsContact>>(s.page, 'GET', `/api/sms-contacts?page=1&search=${contactId}`)).items.find(
        (c) => c.contact_id === contactId,
      );
    expect(await contact()).toMatchObject({ status: 'pending', opted_out: false });

    // Twilio sends the number as the phone wrote it in E.164; the reply's text in any case.
    const stop = { MessageSid: `SM${'1'.repeat(32)}`, From: phone, To: '+18005550123', Body: 'Stop' };
    expect((await callback(stop, { signature: null })).status).toBe(403);
    expect(await contact()).toMatchObject({ status: 'pending', opted_out: false });
    expect(await callback(stop)).toEqual({ status: 200, text: TWIML });
    expect(await contact()).toMatchObject({ status: 'opted_out', opted_out: true, next_send_at: null });

    await s.page.goto(`${s.url}/sms-contacts`);
    await s.page.getByRole('textbox', { name: 'Search' }).fill(contactId);
    await s.page.getByTestId('contact-row').filter({ hasText: contactId }).getByText('Opted out').first().waitFor();

    const start = { ...stop, MessageSid: `SM${'2'.repeat(32)}`, Body: 'START' };
    expect((await callback(start, { authToken: 'f'.repeat(32) })).status).toBe(403);
    expect((await contact())?.opted_out).toBe(true);
    expect((await callback(start)).status).toBe(200);
    expect((await contact())?.opted_out).toBe(false);
  });
});
