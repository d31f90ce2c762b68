/**
 * No message with an empty link ever goes out: a template using {checkout_url} for a contact whose funnel
 * sent none takes the integration's fallback link; with neither, the step is logged as skipped and the sequence
 * goes on. Through the service over HTTP, with the fake Twilio.
 */
import { call } from '@act/service-kit/testing';
import type { SmsLog } from '@act/contracts/src/sms-api';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('links');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const logsOf = async (phone: string) =>
  ((await call(sms.svc.url, 'GET', '/api/sms-logs')).body as SmsLog[]).filter((l) => l.phone === phone);

const templates = [{ message: 'Hi {first_name}, your cart: {checkout_url}' }, { message: 'Still thinking it over?', delay_minutes: 1 }];

it('without a link anywhere: the step with {checkout_url} is logged skipped, the next one is sent', async () => {
  await createFunnel(sms.svc.url, 'no-link', templates);
  await postContact(sms.svc.url, 'no-link', 'nl-1', '+15552070101', { first_name: 'Ann' });
  await waitFor(async () => sentTo('+15552070101').length === 1, 15_000);
  expect(sentTo('+15552070101')).toEqual(['Still thinking it over?']);
  const logs = await logsOf('+15552070101');
  expect(logs.map((l) => l.status).sort()).toEqual(['queued', 'skipped_no_link']);
  expect(logs.find((l) => l.status === 'skipped_no_link')?.error_message).toBe(
    'Skipped: no checkout link (the funnel sent none and the integration has no fallback link)',
  );
});

it("the integration's fallback link fills {checkout_url} when the funnel sent none; the contact's own link wins", async () => {
  const { integration } = await createFunnel(sms.svc.url, 'fallback', templates.slice(0, 1));
  const patched = await call(sms.svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, {
    body: { checkout_fallback_url: 'https://shop.example/cart' },
  });
  expect(patched.body.checkout_fallback_url).toBe('https://shop.example/cart');
  await postContact(sms.svc.url, 'fallback', 'fb-1', '+15552070102', { first_name: 'Bo' });
  await postContact(sms.svc.url, 'fallback', 'fb-2', '+15552070103', { first_name: 'Cy', checkout_url: 'https://shop.example/c/9' });
  await waitFor(async () => sentTo('+15552070102').length === 1 && sentTo('+15552070103').length === 1, 15_000);
  expect(sentTo('+15552070102')).toEqual(['Hi Bo, your cart: https://shop.example/cart']);
  expect(sentTo('+15552070103')).toEqual(['Hi Cy, your cart: https://shop.example/c/9']);
  const bad = await call(sms.svc.url, 'PATCH', `/api/sms-webhook-integrations/${integration.id}`, {
    body: { checkout_fallback_url: 'javascript:alert(1)' },
  });
  expect([bad.status, bad.body]).toEqual([400, { error: 'The fallback checkout link must be an http(s) URL' }]);
});
