/**
 * An interrupted send is settled by looking for its text at Twilio, and that text is rebuilt with the link the
 * claiming attempt chose at its claim: the contact's own link while it still worked then, the integration's fallback
 * once the sender's recovery deadline had passed. Rebuilt with the link of any other moment, it would not match what
 * went out, and the text would be sent a second time.
 */
import type { SmsLog } from '@act/contracts/src/sms-api';
import { call } from '@act/service-kit/testing';
import { createFunnel, postContact, startSendingSms, waitFor, waitUntilSequencesClosed, type SendingSms } from '../test/helpers';

jest.setTimeout(120_000);

let sms: SendingSms;
beforeAll(async () => {
  sms = await startSendingSms('settle-link', { SMS_STEP_LEASE_MS: '1500', SMS_SEND_IN_FLIGHT_MS: '2000', SMS_DUE_SCAN_MS: '200' });
});
afterAll(() => sms?.stop());

it("finds the interrupted text by the link chosen at its claim, before and after the sender's deadline, and sends nothing again", async () => {
  const { svc, twilio, t, mongo } = sms;
  const { integration, templates } = await createFunnel(svc.url, 'settle-link', [{ message: 'Back: {checkout_url}' }], 3);
  expect((await call(svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, { body: { checkout_fallback_url: 'https://shop.example/fallback' } })).status).toBe(200);
  const now = Date.now();
  const claimedAt = new Date(now - 10_000);
  const cases = [
    // The link stopped working after the claim: the attempt sent the contact's own link.
    { id: 'own', phone: '+15552091001', expiresAt: new Date(now - 5_000), sent: 'Back: https://shop.example/c/own' },
    // The link had stopped working before the claim: the attempt sent the fallback.
    { id: 'fallback', phone: '+15552091002', expiresAt: new Date(now - 20_000), sent: 'Back: https://shop.example/fallback' },
  ];
  const contacts = mongo.db(t.db).collection('sms_contacts');
  for (const [i, c] of cases.entries()) {
    const created = await postContact(svc.url, 'settle-link', c.id, c.phone, { checkout_url: `https://shop.example/c/${c.id}` });
    expect(created.status).toBe(200);
    const ref = (created.body as { id: number }).id;
    // Another attempt claimed the step and was cut off after Twilio took its text.
    await contacts.updateOne({ id: ref }, { $set: { lease_id: `cut-off-${c.id}`, 'cart.recovery_expires_at': c.expiresAt.toISOString() } });
    await mongo.db(t.db).collection('sms_sends').insertOne({ contact_ref: ref, template_id: templates[0].id, step: 0, claimed_at: claimedAt });
    twilio.messages.push({
      sid: `SM${String(i + 1).repeat(32)}`,
      accountSid: twilio.accountSid,
      to: c.phone,
      from: '+15005550006',
      messagingServiceSid: null,
      body: c.sent,
      statusCallback: null,
      at: claimedAt.getTime() + 200,
      host: 'api.twilio.com',
    });
  }

  for (const [i, c] of cases.entries()) {
    const log = await waitFor(async () => ((await call(svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).find((l) => l.contact_id === c.id), 30_000);
    expect(log).toMatchObject({ message_sid: `SM${String(i + 1).repeat(32)}`, message: c.sent });
  }
  // The positive control: both sequences (one template) are closed, so nothing more can be sent for them.
  await waitUntilSequencesClosed(svc.url, (c) => cases.some((k) => k.id === c.contact_id), 2);
  for (const c of cases) expect(twilio.messages.filter((m) => m.to === c.phone).map((m) => m.body)).toEqual([c.sent]);
});
