/**
 * The cart in the SMS: the shared variables filled from the stored cart, and a message that would take more
 * segments than its template's typical one gets a shorter item name, never a shorter link. Through the service over
 * HTTP, a Shopify delivery in, the fake Twilio out.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { smsSegments, typicalSmsSegments } from '@act/contracts/src/sms-segments';
import { call } from '@act/service-kit/testing';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('cart-message');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
// A documented payload edited field by field: its shape is the sender's, not ours.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const checkout = (): Record<string, any> =>
  JSON.parse(readFileSync(path.join(__dirname, '../../../packages/sources/src/shopify/fixtures/checkouts-create.json'), 'utf8'));

const TEMPLATE = 'Hi {{firstName}}, your {{firstItemName}} ({{cartTotal}}) is still in your cart: {{recoveryUrl}}';
const LINK = 'https://north-goods.myshopify.com/60673655038/checkouts/ac/b7e3c1a9/recover';

async function deliverCheckout(funnel: string, phone: string, token: string, title: string) {
  const { integration } = await createFunnel(sms.svc.url, funnel, [{ message: TEMPLATE }]);
  const body = checkout();
  Object.assign(body, { token, phone, abandoned_checkout_url: LINK });
  body.customer = { ...body.customer, phone };
  body.billing_address = { ...body.billing_address, phone };
  body.line_items = [{ ...body.line_items[0], title }, ...body.line_items.slice(1)];
  const r = await call(sms.svc.url, 'POST', new URL(integration.webhook_url).pathname, {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'X-Shopify-Topic': 'checkouts/create', 'X-Shopify-Webhook-Id': token },
    user: null,
  });
  expect(r.status).toBe(200);
}

it('fills the first name, first item and total from the stored cart', async () => {
  await deliverCheckout('sms-cart-short', '+16475550181', 'sms-cart-token-1', 'Wool socks');
  await waitFor(async () => sentTo('+16475550181').length === 1, 20_000);
  expect(sentTo('+16475550181')).toEqual([`Hi Sam, your Wool socks (CA$101.70) is still in your cart: ${LINK}`]);
});

it('a long item name is shortened to keep the template’s segments; the link stays whole', async () => {
  const long = 'Hand-Knitted Merino Wool Hiking Socks with Reinforced Heel, Arch Support and Cushioned Sole (3 Pack)';
  await deliverCheckout('sms-cart-long', '+16475550182', 'sms-cart-token-2', long);
  await waitFor(async () => sentTo('+16475550182').length === 1, 20_000);
  const [body] = sentTo('+16475550182');
  expect(typicalSmsSegments(TEMPLATE).segments).toBe(1);
  expect(smsSegments(body!).segments).toBe(1);
  expect(body!.endsWith(`is still in your cart: ${LINK}`)).toBe(true);
  const name = /your (.*) \(CA\$101\.70\)/.exec(body!)![1]!;
  expect(name).toMatch(/\.\.\.$/);
  expect(long.startsWith(name.slice(0, -3))).toBe(true);
  expect(name.length).toBeGreaterThan(10);
});
