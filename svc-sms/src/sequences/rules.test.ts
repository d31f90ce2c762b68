/** The pure rules shared with the UI (packages/contracts/src/sms-api.ts) and phone normalisation. */
import {
  isTollFree,
  renderSmsTemplate,
  smsIntegrationSchema,
  smsTemplateSchema,
  TEST_PHONE_PATTERN,
  twilioConfigSchema,
} from '@act/contracts/src/sms-api';
import { toE164 } from '../contacts/phone';
import { logStatusFromTwilio } from '../provider/twilio';

describe('placeholders', () => {
  it('replaces single- and double-brace forms', () => {
    expect(
      renderSmsTemplate('Hi {first_name}, {{ checkout_url }} / {{first_name}}', {
        first_name: 'Jane',
        checkout_url: 'https://x/c',
      }),
    ).toBe('Hi Jane, https://x/c / Jane');
  });
  it('falls back for a missing first name, leaves unknown words as written', () => {
    expect(renderSmsTemplate('Hi {first_name}! {coupon}', {})).toBe('Hi there! {coupon}');
  });
});

describe('toll-free', () => {
  it.each([
    '+18005550100',
    '+18335550100',
    '+18445550100',
    '+18555550100',
    '+18665550100',
    '+18775550100',
    '+18885550100',
  ])('%s is toll-free', (p) => expect(isTollFree(p)).toBe(true));
  it.each(['+15555550100', '+18015550100', '+448005550100', '+1800555010'])('%s is not', (p) =>
    expect(isTollFree(p)).toBe(false),
  );
});

describe('test phone pattern (optional +, optional 1, 10 to 15 digits)', () => {
  it.each(['+15551234567', '15551234567', '5551234567', '+441234567890', '123456789012345'])('accepts %s', (p) =>
    expect(TEST_PHONE_PATTERN.test(p)).toBe(true),
  );
  it.each(['', '555123456', '+1 555 123 4567', '555-123-4567', '1234567890123456789', '+1555123456a'])(
    'refuses %s',
    (p) => expect(TEST_PHONE_PATTERN.test(p)).toBe(false),
  );
});

describe('E.164 normalisation (US default)', () => {
  it.each([
    ['+1 555 123 4567', '+15551234567'],
    ['(555) 123-4567', '+15551234567'],
    ['15551234567', '+15551234567'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('%s -> %s', (raw, e164) => expect(toE164(raw)).toBe(e164));
  it.each(['12', 'abc', '', '555-1234'])('%s is not a phone', (raw) => expect(toE164(raw)).toBeNull());
});

describe('schemas', () => {
  it('integration defaults', async () => {
    expect(await smsIntegrationSchema.validate({ name: 'A', funnel_id: 'f' })).toEqual({
      name: 'A',
      funnel_id: 'f',
      sms_campaign_id: null,
      reminder_delay: 30,
      active: true,
      checkout_fallback_url: null,
    });
    expect(
      (await smsIntegrationSchema.validate({ name: 'A', funnel_id: 'f', sms_campaign_id: '' })).sms_campaign_id,
    ).toBeNull();
  });
  it('template rules', async () => {
    await expect(smsTemplateSchema.validate({ campaign_id: 1, name: 'T', message: 'x'.repeat(161) })).rejects.toThrow(
      'SMS messages must be 160 characters or less',
    );
    await expect(
      smsTemplateSchema.validate({ campaign_id: 1, name: 'T', message: 'x', delay_minutes: -1 }),
    ).rejects.toThrow('Delay must be 0 or greater');
  });
  it('config rules', async () => {
    await expect(twilioConfigSchema.validate({ webhook_url: 'ftp://x' })).rejects.toThrow('Must be a valid URL');
    await expect(twilioConfigSchema.validate({ blackout_start_hour: -1 })).rejects.toThrow(
      'Blackout start hour must be a whole number from 0 to 23',
    );
    expect(
      await twilioConfigSchema.validate({
        webhook_url: '',
        blackout_end_hour: 0,
        blackout_timezone: 'Pacific/Honolulu',
      }),
    ).toMatchObject({ blackout_end_hour: 0 });
  });
});

describe('Twilio statuses', () => {
  it.each([
    ['accepted', 'queued'],
    ['queued', 'queued'],
    ['sending', 'queued'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['receiving', null],
  ])('%s -> %s', (tw, ours) => expect(logStatusFromTwilio(tw)).toBe(ours));
});
