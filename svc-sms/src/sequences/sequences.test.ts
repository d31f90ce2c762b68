/**
 * Reminder sequences end to end: the real service (tsx child process) sending through the real twilio SDK to a
 * local fake Twilio. One test "minute" is one second (SMS_DELAY_UNIT_MS=1000).
 */
import type { SmsContact, SmsLog, SmsWebhookEvent } from '@act/contracts/src/sms-api';
import { DateTime } from 'luxon';
import { call } from '@act/service-kit/testing';
import { SMS_TIMEZONES } from '@act/contracts/src/sms-api';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { configureSending, createFunnel, postContact, PUBLIC_URL, sleep, waitFor, waitUntilSequencesClosed } from '../test/helpers';

// Starting the service takes a while on a loaded machine (tsx, the twilio SDK, Agenda).
jest.setTimeout(120_000);

const sms = useSmsWithTwilio('seq');

const contacts = async () => (await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[];
const contactOf = async (contactId: string) => (await contacts()).find((c) => c.contact_id === contactId)!;
const logsFor = async (contactId: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[])
    .filter((l) => l.contact_id === contactId)
    .sort((a, b) => (a.sequence_order ?? 0) - (b.sequence_order ?? 0));
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone);

describe('sequence order and delays', () => {
  it('sends active templates in sequence_order: the first at remind_at, each next delay_minutes after the previous', async () => {
    // Created out of order on purpose; the inactive one is never sent.
    await createFunnel(sms.svc.url, 'order-funnel', [
      { message: 'Third: still there, {{first_name}}?', sequence_order: 3, delay_minutes: 1 },
      { message: 'Hi {first_name}, your cart: {checkout_url}', sequence_order: 1, delay_minutes: 5 },
      { message: 'Never sent', sequence_order: 2, delay_minutes: 0, active: false },
      { message: 'Second reminder', sequence_order: 2, delay_minutes: 2 },
    ]);
    const posted = Date.now();
    const r = await postContact(sms.svc.url, 'order-funnel', 'ord-1', '(555) 201-0001', {
      checkout_url: 'https://shop.example/c/1',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', message: 'SMS contact created' });

    const c0 = await contactOf('ord-1');
    expect(c0).toMatchObject({
      phone: '+15552010001',
      status: 'pending',
      funnel_id: 'order-funnel',
      first_name: 'Jane',
      opted_out: false,
      messages_sent: 0,
    });
    expect(new Date(c0.remind_at).getTime() - new Date(c0.created_at).getTime()).toBe(1000);

    await waitFor(async () => sentTo('+15552010001').length >= 3, 15_000);
    // The positive control: the sequence is closed (no step left), so no fourth message can follow.
    await waitUntilSequencesClosed(sms.svc.url, (c) => c.contact_id === 'ord-1', 1);
    const msgs = sentTo('+15552010001');
    expect(msgs.map((m) => m.body)).toEqual([
      'Hi Jane, your cart: https://shop.example/c/1',
      'Second reminder',
      'Third: still there, Jane?',
    ]);
    expect(
      msgs.every(
        (m) =>
          m.from === '+15005550006' &&
          m.messagingServiceSid === null &&
          m.statusCallback === `${PUBLIC_URL}/api/twilio/webhooks` &&
          m.host === 'api.twilio.com',
      ),
    ).toBe(true);
    // First at remind_at (1 s), then +2 s, then +1 s; the due scan runs every 100 ms.
    const gaps = [msgs[0]!.at - posted, msgs[1]!.at - msgs[0]!.at, msgs[2]!.at - msgs[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(2000);
    expect(gaps[2]).toBeGreaterThanOrEqual(1000);
    // No upper bound: how late a step may be is a figure of bench/reminders.mjs, not of a unit test on a loaded machine.

    const logs = await logsFor('ord-1');
    expect(logs.map((l) => [l.sequence_order, l.status, l.message_sid])).toEqual(
      msgs.map((m, i) => [i + 1, 'queued', m.sid]),
    );
    expect(logs[0]).toEqual({
      id: expect.any(Number),
      phone: '+15552010001',
      contact_id: 'ord-1',
      contact_ref: expect.any(Number),
      integration_id: expect.any(Number),
      template_id: expect.any(Number),
      message: 'Hi Jane, your cart: https://shop.example/c/1',
      sequence_order: 1,
      status: 'queued',
      message_sid: msgs[0]!.sid,
      timestamp: expect.any(String),
      error_message: null,
    });
    expect(await contactOf('ord-1')).toMatchObject({ status: 'sent', next_send_at: null, messages_sent: 3 });
  });

  it('takes the campaign that points at the integration when none is chosen, and the messaging service when set', async () => {
    const i = await call(sms.svc.url, 'POST', '/api/sms-webhook-integrations', {
      body: { name: 'Back-linked', funnel_id: 'backlink-funnel', reminder_delay: 1 },
    });
    const c = await call(sms.svc.url, 'POST', '/api/sms-campaigns', {
      body: { name: 'Points here', integration_id: i.body.id, active: true },
    });
    await call(sms.svc.url, 'POST', '/api/sms-templates', {
      body: {
        campaign_id: c.body.id,
        name: 'Only',
        message: 'Hello {first_name}',
        sequence_order: 1,
        delay_minutes: 0,
      },
    });
    await configureSending(sms.svc.url, {
      messaging_service_sid: 'MG00000000000000000000000000000001',
      delivery_webhooks_enabled: true,
    });
    try {
      await postContact(sms.svc.url, 'backlink-funnel', 'bl-1', '+1 555 201 0002', { first_name: undefined });
      const [m] = await waitFor(async () => (sentTo('+15552010002').length ? sentTo('+15552010002') : null));
      expect(m).toMatchObject({
        messagingServiceSid: 'MG00000000000000000000000000000001',
        from: null,
        body: 'Hello there',
        statusCallback: 'http://sms.test.local/api/twilio/webhooks',
      });
      await waitFor(async () => (await logsFor('bl-1'))[0]);
      expect((await logsFor('bl-1'))[0].status).toBe('queued'); // Twilio answers "accepted" for a messaging service
    } finally {
      await configureSending(sms.svc.url, { messaging_service_sid: '', delivery_webhooks_enabled: false });
    }
  });
});

describe('skipping', () => {
  it('skips a phone already messaged for another contact of the same integration, and counts it', async () => {
    await createFunnel(sms.svc.url, 'dup-funnel', [{ message: 'One' }, { message: 'Two', delay_minutes: 1 }]);
    await createFunnel(sms.svc.url, 'other-funnel', [{ message: 'Other' }]);
    await postContact(sms.svc.url, 'dup-funnel', 'dup-a', '+15552010003');
    await sleep(300);
    await postContact(sms.svc.url, 'dup-funnel', 'dup-b', '555.201.0003');
    await postContact(sms.svc.url, 'other-funnel', 'dup-c', '+15552010003');
    await waitFor(async () => (await contactOf('dup-b')).status === 'skipped_duplicate', 10_000);
    await waitFor(async () => sentTo('+15552010003').length >= 3, 10_000);
    // The positive control: all three sequences are closed, dup-a's after its second step.
    await waitUntilSequencesClosed(sms.svc.url, (c) => ['dup-a', 'dup-b', 'dup-c'].includes(c.contact_id), 3);
    // dup-a gets both steps, dup-c (another integration) its own, dup-b nothing.
    expect(
      sentTo('+15552010003')
        .map((m) => m.body)
        .sort(),
    ).toEqual(['One', 'Other', 'Two']);
    const logs = await logsFor('dup-b');
    expect(logs).toEqual([
      expect.objectContaining({ status: 'skipped_duplicate', sequence_order: 1, message: 'One', message_sid: null }),
    ]);
    expect(await contactOf('dup-b')).toMatchObject({
      status: 'skipped_duplicate',
      next_send_at: null,
      messages_sent: 0,
    });
  });

  it('never sends to a toll-free number and logs it as blocked', async () => {
    await createFunnel(sms.svc.url, 'tollfree-funnel', [{ message: 'Hi' }, { message: 'Again', delay_minutes: 1 }]);
    for (const [i, prefix] of ['800', '833', '844', '855', '866', '877', '888'].entries())
      await postContact(sms.svc.url, 'tollfree-funnel', `tf-${i}`, `+1${prefix}5550100`);
    await waitFor(
      async () =>
        (await contacts()).filter((c) => c.contact_id.startsWith('tf-') && c.status === 'abandoned').length === 7,
      10_000,
    );
    // The positive control: each one's step was taken and logged as blocked (in the burst that would have sent it).
    await waitFor(async () => {
      const rows = (await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[];
      return rows.filter((l) => l.contact_id?.startsWith('tf-') && l.status === 'blocked_toll_free').length === 7;
    }, 10_000);
    expect(sms.twilio.messages.filter((m) => /^\+1(800|833|844|855|866|877|888)/.test(m.to))).toEqual([]);
    const logs = await logsFor('tf-0');
    expect(logs).toEqual([expect.objectContaining({ status: 'blocked_toll_free', phone: '+18005550100' })]);
  });

  it('logs a refused send as failed with the reason, marks the contact error and stops', async () => {
    await createFunnel(sms.svc.url, 'fail-funnel', [{ message: 'A' }, { message: 'B', delay_minutes: 1 }]);
    sms.twilio.refuse.add('+15552010009');
    await postContact(sms.svc.url, 'fail-funnel', 'fail-1', '+15552010009');
    await waitFor(async () => (await contactOf('fail-1')).status === 'error', 10_000);
    // The positive control: the refused step's log is written and the sequence closed (no step B to come).
    await waitFor(async () => (await logsFor('fail-1')).length > 0, 10_000);
    await waitUntilSequencesClosed(sms.svc.url, (c) => c.contact_id === 'fail-1', 1);
    const logs = await logsFor('fail-1');
    expect(logs).toEqual([
      expect.objectContaining({
        status: 'failed',
        error_message: "Twilio error 21211: The 'To' number +15552010009 is not a valid phone number.",
        message_sid: null,
      }),
    ]);
    expect(await contactOf('fail-1')).toMatchObject({ status: 'error', next_send_at: null });
  });
});

describe('purchase through the webhook', () => {
  it('stops the sequence after the first message', async () => {
    await createFunnel(sms.svc.url, 'buy-funnel', [{ message: 'First' }, { message: 'Second', delay_minutes: 2 }]);
    await postContact(sms.svc.url, 'buy-funnel', 'buy-1', '+15552010010');
    await waitFor(async () => sentTo('+15552010010').length === 1, 10_000);
    const r = await call(sms.svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: {
        event_type: 'purchase_created',
        funnel_id: 'buy-funnel',
        contact_id: 'buy-1',
        amount: 49,
        currency: 'USD',
      },
    });
    expect(r.body).toMatchObject({ status: 'ok', updated: 1 });
    expect(await contactOf('buy-1')).toMatchObject({
      status: 'purchased',
      next_send_at: null,
      purchased_at: expect.any(String),
    });
    // The positive control: a contact of the same funnel arriving after the purchase, so each of its steps falls
    // due later than buy-1's would have; once its Second is out, buy-1's Second would have been too.
    await postContact(sms.svc.url, 'buy-funnel', 'buy-1-control', '+15552010013');
    await waitFor(async () => sentTo('+15552010013').length === 2, 15_000);
    expect(sentTo('+15552010010').map((m) => m.body)).toEqual(['First']);
  });

  it('matches by phone within the integration when the contact id differs', async () => {
    await createFunnel(sms.svc.url, 'buy-phone-funnel', [{ message: 'Never' }], 3);
    await postContact(sms.svc.url, 'buy-phone-funnel', 'bp-1', '+15552010011');
    const r = await call(sms.svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: {
        event: 'purchase_created',
        funnel_id: 'buy-phone-funnel',
        contact: { id: 'order-77', phone: '555-201-0011' },
      },
    });
    expect(r.body).toMatchObject({ updated: 1 });
    // The positive control: a contact of the same funnel created after bp-1 (due later) gets its message.
    await postContact(sms.svc.url, 'buy-phone-funnel', 'bp-control', '+15552010014');
    await waitFor(async () => sentTo('+15552010014').length === 1, 15_000);
    expect(sentTo('+15552010011')).toEqual([]);
  });

  it("'Mark Purchased' stops a pending contact", async () => {
    await createFunnel(sms.svc.url, 'manual-funnel', [{ message: 'Never' }], 2);
    await postContact(sms.svc.url, 'manual-funnel', 'man-1', '+15552010012');
    const c = await contactOf('man-1');
    const r = await call(sms.svc.url, 'POST', '/api/sms-contacts/mark-purchased', { body: { contact_id: c.id } });
    expect(r.body).toEqual({ success: true, message: 'Contact marked as purchased', updated: 1 });
    expect(
      (await call(sms.svc.url, 'POST', '/api/sms-contacts/mark-purchased', { body: { contact_id: 999999 } })).status,
    ).toBe(404);
    expect((await call(sms.svc.url, 'POST', '/api/sms-contacts/mark-purchased', { body: {} })).body).toEqual({
      error: 'contact_id is required',
    });
    // The positive control: a contact of the same funnel created after man-1 (due later) gets its message.
    await postContact(sms.svc.url, 'manual-funnel', 'man-control', '+15552010015');
    await waitFor(async () => sentTo('+15552010015').length === 1, 15_000);
    expect(sentTo('+15552010012')).toEqual([]);
    expect(await contactOf('man-1')).toMatchObject({ status: 'purchased' });
  });
});

describe('template test SMS', () => {
  it('sends the template with sample values and logs it', async () => {
    const { templates } = await createFunnel(
      sms.svc.url,
      'test-tpl-funnel',
      [{ message: 'Hi {first_name}: {checkout_url}' }],
      60,
    );
    const r = await call(sms.svc.url, 'POST', `/api/sms-templates/${templates[0].id}/test`, {
      body: { testPhone: '+15552010020' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: 'Test SMS sent successfully', sid: expect.stringMatching(/^SM/) });
    expect(sentTo('+15552010020').map((m) => m.body)).toEqual(['Hi Jane: https://example.com/checkout']);
    const t2 = await call(sms.svc.url, 'POST', '/api/twilio/test-sms', {
      body: { test_phone: '15552010021', test_message: 'This is a test message from your SMS system.' },
    });
    expect(t2.body).toMatchObject({ success: true, message: 'Test SMS sent successfully' });
    expect(sentTo('+15552010021')).toHaveLength(1);
  });
});

describe('blackout', () => {
  it('holds a due message until the end of a window that spans midnight, in the configured timezone', async () => {
    // Pick a zone where the local hour is not 0, and a window from this hour to the hour before it: it spans
    // midnight and we are inside it now.
    // An hour rolling over meanwhile keeps us inside the window and does not move its end.
    const zone = SMS_TIMEZONES.find((z) => DateTime.now().setZone(z).hour !== 0)!;
    const local = DateTime.now().setZone(zone);
    const hour = local.hour;
    const expectedEnd = local.plus({ days: 1 }).set({ hour: hour - 1, minute: 0, second: 0, millisecond: 0 });
    await configureSending(sms.svc.url, {
      blackout_enabled: true,
      blackout_start_hour: hour,
      blackout_end_hour: hour - 1,
      blackout_timezone: zone,
    });
    try {
      await createFunnel(sms.svc.url, 'night-funnel', [{ message: 'Held' }]);
      await postContact(sms.svc.url, 'night-funnel', 'night-1', '+15552010030');
      const held = await waitFor(async () => {
        const c = await contactOf('night-1');
        // Held once held_until is written: while the step is being worked, next_send_at is its lease's end.
        return c.held_until && c.next_send_at && new Date(c.next_send_at).getTime() > Date.now() + 60_000 ? c : null;
      });
      expect(new Date(held.next_send_at!).toISOString()).toBe(expectedEnd.toUTC().toISO());
      expect(held.status).toBe('pending');
      // It says it is held, and until when, not just Pending with a past remind time.
      expect(held.held_until).toBe(held.next_send_at);
      // The positive control: a contact due after night-1 is held as well, so the engine has looked at due steps
      // since night-1 was held.
      await postContact(sms.svc.url, 'night-funnel', 'night-control', '+15552010031');
      await waitFor(async () => (await logsFor('night-control')).some((l) => l.status === 'held_blackout'), 10_000);
      expect(sentTo('+15552010030')).toEqual([]);
      expect(sentTo('+15552010031')).toEqual([]);
      // One log row says it is held and until when; nothing was sent, and later scans add no second row.
      const rows = await logsFor('night-1');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'held_blackout', held_until: held.next_send_at, message_sid: null, template_id: null });
    } finally {
      await configureSending(sms.svc.url, { blackout_enabled: false });
    }
  });
});

describe('funnel webhook', () => {
  it('upserts one contact per funnel contact and refreshes its details', async () => {
    await createFunnel(sms.svc.url, 'upsert-funnel', [{ message: 'x' }], 60);
    const a = await postContact(sms.svc.url, 'upsert-funnel', 'up-1', '+15552010040');
    const b = await call(sms.svc.url, 'POST', '/api/sms/webhook', {
      user: null,
      body: {
        event_type: 'contact_created',
        funnel_id: 'upsert-funnel',
        contact_id: 'up-1',
        phone: '+15552010040',
        first_name: 'Janet',
      },
    });
    expect(a.body.message).toBe('SMS contact created');
    expect(b.body.message).toBe('SMS contact updated');
    const matching = (await contacts()).filter((c) => c.contact_id === 'up-1');
    expect(matching).toHaveLength(1);
    expect(matching[0]).toMatchObject({ first_name: 'Janet', id: a.body.id });
  });

  it('answers the handshake, ignores unknown funnels with 202 and refuses bad input with 400, storing every delivery', async () => {
    const hs = await call(sms.svc.url, 'POST', '/api/sms/webhook', { user: null, body: { event: 'handshake' } });
    expect(hs).toMatchObject({ status: 200, body: { status: 'ok', message: 'Handshake received' } });
    const none = await postContact(sms.svc.url, 'no-such-funnel', 'x-1', '+15552010050');
    expect(none).toMatchObject({
      status: 202,
      body: { status: 'ignored', message: 'No active SMS integration for funnel no-such-funnel' },
    });
    // The last one is read back below as the newest event.
    const bad = [
      [{ raw: '{not json' }, 'Invalid JSON body'],
      [{ body: { event: 'order_shipped', funnel_id: 'f' } }, 'Unknown event type: order_shipped'],
      [{ body: { event: 'contact_created', contact: { id: 'c', phone: '+15552010051' } } }, 'Funnel ID is required'],
      [
        { body: { event: 'contact_created', funnel_id: 'upsert-funnel', contact: { phone: '+15552010051' } } },
        'contact_id is required',
      ],
      [
        { body: { event: 'contact_created', funnel_id: 'upsert-funnel', contact: { id: 'c', email: 'a@b.c' } } },
        'Phone number is required',
      ],
      [
        {
          body: {
            event: 'contact_created',
            funnel_id: 'upsert-funnel',
            contact: { id: 'c', phone: '+15552010051', first_name: 'x'.repeat(200_000) },
          },
        },
        'first_name must be at most 200 characters',
      ],
      [
        { body: { event: 'contact_created', funnel_id: 'upsert-funnel', contact: { id: 'c', phone: '12' } } },
        'Invalid phone number format',
      ],
    ] as const;
    for (const [opts, error] of bad) {
      const r = await call(sms.svc.url, 'POST', '/api/sms/webhook', { user: null, ...opts });
      expect([r.status, r.body]).toEqual([400, { error }]);
    }
    const events = (await call(sms.svc.url, 'GET', '/api/sms-webhook-events')).body as SmsWebhookEvent[];
    expect(events[0]).toEqual({
      id: expect.any(Number),
      type: 'invalid',
      payload: expect.stringContaining('"12"'),
      timestamp: expect.any(String),
      source: 'generic',
      verification: 'unsigned',
      verification_reason: 'Invalid phone number format',
      outcome: 'invalid',
      integration_id: null,
      event_name: 'contact_created',
      // An invalid delivery names no contact, so it links to no contact page.
      contact_ref: null,
    });
    expect(events.filter((e) => e.type === 'invalid').map((e) => e.payload)).toContain('{not json');
    expect(events.some((e) => e.type === 'handshake')).toBe(true);
    expect(events.some((e) => e.type === 'contact' && e.payload.includes('no-such-funnel'))).toBe(true);
    expect(events.some((e) => e.type === 'purchase')).toBe(true);
  });

  it('clears all contacts', async () => {
    const r = await call(sms.svc.url, 'POST', '/api/sms-contacts/clear');
    expect(r.body).toMatchObject({ success: true, message: 'All SMS contacts cleared' });
    expect(await contacts()).toEqual([]);
  });
});
