/**
 * POST /api/twilio/webhooks: Twilio's signature (X-Twilio-Signature over PUBLIC_URL + path and the form fields),
 * status callbacks updating the log, inbound replies, STOP / START.
 */
import type { SmsContact, SmsLog, SmsWebhookEvent } from '@act/contracts/src/sms-api';
import twilioSdk from 'twilio';
import { call, gatewayHeaders } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, dropDb, postContact, PUBLIC_URL, startSms, waitFor, waitUntilSequencesClosed } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

const sms = useSmsWithTwilio('cb');
const CALLBACK_URL = `${PUBLIC_URL}/api/twilio/webhooks`;

/** Posts form fields as Twilio does (through the gateway, which forwards the signature header). */
async function postCallback(url: string, params: Record<string, string>, signature?: string | null) {
  const sig =
    signature === undefined
      ? twilioSdk.getExpectedTwilioSignature(sms.twilio.authToken, CALLBACK_URL, params)
      : signature;
  const headers: Record<string, string> = {
    ...gatewayHeaders(null),
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (sig !== null) headers['x-twilio-signature'] = sig;
  const res = await fetch(`${url}/api/twilio/webhooks`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const contactOf = async (contactId: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === contactId);
const logs = async () => (await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[];
const events = async () => (await call(sms.svc.url, 'GET', '/api/sms-webhook-events')).body as SmsWebhookEvent[];
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone);

describe('signature', () => {
  const params = { MessageSid: 'SMnone', MessageStatus: 'delivered', AccountSid: 'ACx' };

  it('accepts a correctly signed callback and answers empty TwiML', async () => {
    const r = await postCallback(sms.svc.url, params);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/xml/);
    expect(r.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
  });

  it('refuses a missing, wrong or tampered signature with 403', async () => {
    expect((await postCallback(sms.svc.url, params, null)).status).toBe(403);
    expect((await postCallback(sms.svc.url, params, 'bm90IGEgc2lnbmF0dXJl')).status).toBe(403);
    const signedForOther = twilioSdk.getExpectedTwilioSignature(sms.twilio.authToken, CALLBACK_URL, {
      ...params,
      MessageStatus: 'failed',
    });
    const r = await postCallback(sms.svc.url, params, signedForOther);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.text)).toEqual({ error: 'Invalid Twilio signature' });
    const wrongToken = twilioSdk.getExpectedTwilioSignature('another-token', CALLBACK_URL, params);
    expect((await postCallback(sms.svc.url, params, wrongToken)).status).toBe(403);
  });

  it('also accepts a signature over the delivery webhook URL an admin entered', async () => {
    const custom = 'https://hooks.example.com/twilio/status';
    await call(sms.svc.url, 'POST', '/api/twilio/config', { body: { webhook_url: custom } });
    try {
      const sig = twilioSdk.getExpectedTwilioSignature(sms.twilio.authToken, custom, params);
      expect((await postCallback(sms.svc.url, params, sig)).status).toBe(200);
      const elsewhere = twilioSdk.getExpectedTwilioSignature(sms.twilio.authToken, 'https://evil.example/x', params);
      expect((await postCallback(sms.svc.url, params, elsewhere)).status).toBe(403);
    } finally {
      await call(sms.svc.url, 'POST', '/api/twilio/config', { body: { webhook_url: '' } });
    }
  });

  it('refuses everything when no auth token is configured', async () => {
    const bare = await startSms(sms.t, {
      TWILIO_AUTH_TOKEN: '',
      TWILIO_ACCOUNT_SID: '',
      MONGODB_DB: `${sms.t.db}_bare`,
    });
    try {
      const r = await postCallback(bare.url, params);
      expect(r.status).toBe(403);
      expect(JSON.parse(r.text).error).toMatch(/TWILIO_AUTH_TOKEN is not set/);
    } finally {
      await bare.stop();
      await dropDb(`${sms.t.db}_bare`);
    }
  });
});

describe('status callbacks', () => {
  it('update the log by MessageSid, never backwards, and are stored as sms_delivery events', async () => {
    await createFunnel(sms.svc.url, 'status-funnel', [{ message: 'Track me' }]);
    await postContact(sms.svc.url, 'status-funnel', 'st-1', '+15552020001');
    const [m] = await waitFor(async () => (sentTo('+15552020001').length ? sentTo('+15552020001') : null));
    const logOf = async () => (await logs()).find((l) => l.message_sid === m!.sid)!;
    await waitFor(logOf);
    expect((await logOf()).status).toBe('queued');

    await postCallback(sms.svc.url, { MessageSid: m!.sid, MessageStatus: 'sent', To: m!.to });
    expect((await logOf()).status).toBe('sent');
    await postCallback(sms.svc.url, { MessageSid: m!.sid, MessageStatus: 'delivered', To: m!.to });
    expect((await logOf()).status).toBe('delivered');
    // A late "sent" must not undo "delivered".
    await postCallback(sms.svc.url, { MessageSid: m!.sid, MessageStatus: 'sent', To: m!.to });
    expect((await logOf()).status).toBe('delivered');

    const ev = (await events()).find((e) => e.type === 'sms_delivery' && e.payload.includes(m!.sid));
    expect(JSON.parse(ev!.payload)).toMatchObject({ MessageSid: m!.sid, MessageStatus: expect.any(String) });
  });

  it('records failures with the error code', async () => {
    await createFunnel(sms.svc.url, 'status-fail-funnel', [{ message: 'Will fail' }]);
    await postContact(sms.svc.url, 'status-fail-funnel', 'st-2', '+15552020002');
    const [m] = await waitFor(async () => (sentTo('+15552020002').length ? sentTo('+15552020002') : null));
    await waitFor(async () => (await logs()).find((l) => l.message_sid === m!.sid));
    await postCallback(sms.svc.url, { MessageSid: m!.sid, MessageStatus: 'undelivered', ErrorCode: '30003' });
    expect((await logs()).find((l) => l.message_sid === m!.sid)).toMatchObject({
      status: 'undelivered',
      error_message: 'Twilio error 30003',
    });
  });

  it('refuses a callback that is neither a status nor a message', async () => {
    const r = await postCallback(sms.svc.url, { Foo: 'bar' });
    expect(r.status).toBe(400);
  });
});

describe('replies, STOP and START', () => {
  it('STOP opts the phone out: no further sends, shown on the contact; START opts back in', async () => {
    await createFunnel(sms.svc.url, 'stop-funnel', [{ message: 'First' }, { message: 'Second', delay_minutes: 2 }]);
    await postContact(sms.svc.url, 'stop-funnel', 'stop-1', '+15552020003');
    await waitFor(async () => sentTo('+15552020003').length === 1);

    const r = await postCallback(sms.svc.url, {
      MessageSid: 'SMin1',
      From: '+15552020003',
      To: '+15005550006',
      Body: ' stop ',
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(await contactOf('stop-1')).toMatchObject({ opted_out: true, status: 'opted_out', next_send_at: null });
    const reply = (await events()).find((e) => e.type === 'sms_reply');
    expect(JSON.parse(reply!.payload)).toMatchObject({ From: '+15552020003', Body: ' stop ' });
    // The positive control for stop-1's Second (2 s after its First): a contact of the same funnel arriving now, whose
    // Second falls due after stop-1's would have; checked at the end of the test.
    await postContact(sms.svc.url, 'stop-funnel', 'stop-control', '+15552020005');

    // A new contact with that phone is never messaged either.
    await postContact(sms.svc.url, 'stop-funnel', 'stop-2', '555-202-0003');
    // Waited for by the engine's own decision (the due step ends the sequence as opted out), not by sleeping.
    await waitFor(async () => (await contactOf('stop-2'))?.status === 'opted_out');
    expect(await contactOf('stop-2')).toMatchObject({ status: 'opted_out', opted_out: true, next_send_at: null });
    expect(sentTo('+15552020003').map((m) => m.body)).toEqual(['First']);

    // Nor is a test SMS.
    const test = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', {
      body: { test_phone: '+15552020003', test_message: 'Hi' },
    });
    expect(test.status).toBe(400);

    await postCallback(sms.svc.url, { MessageSid: 'SMin2', From: '+15552020003', To: '+15005550006', Body: 'START' });
    expect(await contactOf('stop-2')).toMatchObject({ opted_out: false });
    await postContact(sms.svc.url, 'stop-funnel', 'stop-3', '+15552020004');
    await waitFor(async () => sentTo('+15552020004').length === 1);
    await waitFor(async () => sentTo('+15552020005').length === 2, 15_000);
    expect(sentTo('+15552020003').map((m) => m.body)).toEqual(['First']);
  });

  it.each(['STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit', 'OPTOUT', 'revoke', ' Stop. ', 'STOP!', 'Stop all'])('%s is an opt-out keyword', async (word) => {
    const n = [...word].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) % 10_000, 7);
    const phone = `+1555203${String(n).padStart(4, '0')}`;
    const id = `kw-${n}`;
    await postCallback(sms.svc.url, { MessageSid: `SMk${n}`, From: phone, To: '+15005550006', Body: word });
    await createFunnel(sms.svc.url, id, [{ message: 'x' }]);
    await postContact(sms.svc.url, id, id, phone);
    await waitFor(async () => (await contactOf(id))?.status === 'opted_out');
    expect(sentTo(phone)).toEqual([]);
  });

  it("YES opts back in; HELP and INFO change nothing; Twilio's OptOutType decides over the text (localised keywords)", async () => {
    const phone = '+15552040001';
    const optedOut = async () => (await contactOf('kw-in'))?.opted_out;
    await createFunnel(sms.svc.url, 'kw-in', [{ message: 'x' }, { message: 'y', delay_minutes: 600 }]);
    await postContact(sms.svc.url, 'kw-in', 'kw-in', phone);
    await waitFor(async () => sentTo(phone).length === 1);
    const reply = (Body: string, extra: Record<string, string> = {}) =>
      postCallback(sms.svc.url, { MessageSid: `SMh${Body}`, From: phone, To: '+15005550006', Body, ...extra });
    await reply('ARRET', { OptOutType: 'STOP' });
    expect(await optedOut()).toBe(true);
    for (const help of ['HELP', 'info', 'Help?']) {
      await reply(help);
      expect([help, await optedOut()]).toEqual([help, true]);
    }
    await reply('Yes');
    expect(await optedOut()).toBe(false);
    await reply('stop');
    expect(await optedOut()).toBe(true);
    await reply('COMMENCER', { OptOutType: 'START' });
    expect(await optedOut()).toBe(false);
    // A keyword Twilio reports as HELP is not an opt-out, whatever it says.
    await reply('STOP', { OptOutType: 'HELP' });
    expect(await optedOut()).toBe(false);
  });

  it('an ordinary reply is stored and changes nothing', async () => {
    await postCallback(sms.svc.url, {
      MessageSid: 'SMin3',
      From: '+15552020009',
      To: '+15005550006',
      Body: 'stop it please',
    });
    expect((await events()).some((e) => e.type === 'sms_reply' && e.payload.includes('stop it please'))).toBe(true);
    await createFunnel(sms.svc.url, 'reply-funnel', [{ message: 'Still sent' }]);
    await postContact(sms.svc.url, 'reply-funnel', 'reply-1', '+15552020009');
    await waitFor(async () => sentTo('+15552020009').length === 1);
  });
});

describe("Twilio's refusals at send time", () => {
  it('21610 (the number replied STOP to the sender): the log says so, the phone joins the opt-out list, no contact with it is tried again', async () => {
    const phone = '+15552050001';
    sms.twilio.optedOut.add(phone);
    await createFunnel(sms.svc.url, 'r21610', [{ message: 'First' }, { message: 'Second', delay_minutes: 1 }]);
    await postContact(sms.svc.url, 'r21610', 'r21610-a', phone);
    await waitFor(async () => (await logs()).some((l) => l.phone === phone && l.status === 'failed'));
    const log = (await logs()).find((l) => l.phone === phone)!;
    expect(log.error_message).toBe(
      'Twilio error 21610: Attempt to send to unsubscribed recipient (the recipient replied STOP to this sender; the number is now on the opt-out list)',
    );
    expect(await contactOf('r21610-a')).toMatchObject({ opted_out: true, next_send_at: null, status: 'opted_out' });
    // Twilio would refuse again: nothing more is attempted for that phone.
    sms.twilio.optedOut.delete(phone);
    await postContact(sms.svc.url, 'r21610', 'r21610-b', phone);
    await waitFor(async () => (await contactOf('r21610-b'))?.status === 'opted_out');
    expect(sentTo(phone)).toEqual([]);
  });

  it('21614 (not a mobile number) fails at once with the reason, and is not retried', async () => {
    const phone = '+15552050002';
    sms.twilio.notMobile.add(phone);
    await createFunnel(sms.svc.url, 'r21614', [{ message: 'Hi' }]);
    await postContact(sms.svc.url, 'r21614', 'r21614', phone);
    await waitFor(async () => (await logs()).some((l) => l.phone === phone && l.status === 'failed'));
    // The positive control: the step is over (the log is written once the provider call, retries included, ended)
    // and the sequence closed, so no later attempt can add a row.
    expect((await waitUntilSequencesClosed(sms.svc.url, (c) => c.contact_id === 'r21614', 1))[0]).toMatchObject({ status: 'error' });
    const rows = (await logs()).filter((l) => l.phone === phone);
    expect(rows.map((l) => [l.status, l.error_message])).toEqual([
      ['failed', "Twilio error 21614: 'To' number +15552050002 is not a valid mobile number"],
    ]);
    expect((await contactOf('r21614'))?.opted_out).toBe(false);
  });
});
