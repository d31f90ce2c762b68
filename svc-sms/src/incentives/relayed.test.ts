/**
 * A purchase the email side received, relayed over NATS, carries the codes it used: an SMS step's code redeemed in an
 * order posted to the email integration is marked redeemed here, with the discount it gave, matched by the shopper's
 * phone (the email side's contact id is its own); a code this side never gave, or a relayed purchase without codes,
 * marks nothing.
 */
import { randomUUID } from 'node:crypto';
import { call } from '@act/service-kit/testing';
import { Subjects } from '@act/contracts';
import type { SmsContact } from '@act/contracts/src/sms-api';
import type { StepRedemptions } from '@act/contracts/src/incentives-api';
import { useSmsWithTwilio } from '../test/sms-with-twilio';
import { createFunnel, postContact, publishEvent, waitFor } from '../test/helpers';

jest.setTimeout(120_000);

const sms = useSmsWithTwilio('relayed-codes');
const sentTo = (phone: string) => sms.twilio.messages.filter((m) => m.to === phone).map((m) => m.body);
const stepFigures = async (templateId: number) =>
  ((await call(sms.svc.url, 'GET', '/api/sms/incentive-redemptions')).body as StepRedemptions[]).find((s) => s.step_key === `sms-template:${templateId}`);
const purchase = (phone: string, extra: Record<string, unknown>) => ({
  eventId: randomUUID(),
  source: 'svc-email',
  occurredAt: new Date().toISOString(),
  funnelId: 'sms-relay',
  contactId: 'email-side-contact',
  email: null,
  phone,
  amount: 88.4,
  currency: 'CAD',
  purchasedAt: new Date().toISOString(),
  ...extra,
});

it('marks the SMS step’s code of a relayed order redeemed, with its discount; codes it never gave stay out', async () => {
  const pool = await call(sms.svc.url, 'POST', '/api/sms/incentive-pools', { body: { name: 'Relay', csv: 'RELAY-1\nRELAY-2\n' } });
  expect(pool.status).toBe(201);
  const { templates } = await createFunnel(sms.svc.url, 'sms-relay', [{ message: 'Code {discount_code}: {checkout_url}' }]);
  const templateId = templates[0]!.id as number;
  expect((await call(sms.svc.url, 'PUT', `/api/sms/templates/${templateId}/incentive`, { body: { kind: 'pool', pool_id: pool.body.id } })).status).toBe(200);
  const [buyer, other] = ['+15552090101', '+15552090102'];
  await postContact(sms.svc.url, 'sms-relay', 'sr-1', buyer, { checkout_url: 'https://shop.example/c/1' });
  await postContact(sms.svc.url, 'sms-relay', 'sr-2', other, { checkout_url: 'https://shop.example/c/2' });
  await waitFor(async () => sentTo(buyer).length === 1 && sentTo(other).length === 1, 30_000);
  const codeOf = (phone: string) => /^Code (\S+):/.exec(sentTo(phone)[0]!)![1]!;
  const [bought, notBought] = [codeOf(buyer), codeOf(other)];
  expect(await stepFigures(templateId)).toEqual({ step_key: `sms-template:${templateId}`, given: 2, redeemed: 0, discount: [], revenue: [] });

  // A relayed purchase without codes marks the contact purchased and redeems nothing.
  await publishEvent(sms.t.natsPrefix, Subjects.purchaseCreated, purchase(other, {}));
  await waitFor(async () => ((await call(sms.svc.url, 'GET', '/api/sms-contacts')).body as SmsContact[]).find((c) => c.contact_id === 'sr-2')?.status === 'purchased', 10_000);
  expect(await stepFigures(templateId)).toMatchObject({ given: 2, redeemed: 0 });

  // The order posted to the email integration used the buyer's SMS code (in its own case) and another shop code; the
  // other shopper's code, used by nobody here, is not named.
  await publishEvent(sms.t.natsPrefix, Subjects.purchaseCreated, purchase(buyer, {
    discountCodes: [
      { code: bought.toLowerCase(), amount: '8.84' },
      { code: 'WELCOME-SHOP', amount: '2.00' },
    ],
  }));
  const figures = await waitFor(async () => {
    const f = await stepFigures(templateId);
    return f && f.redeemed > 0 ? f : null;
  }, 10_000);
  expect(figures).toEqual({ step_key: `sms-template:${templateId}`, given: 2, redeemed: 1, discount: [{ currency: 'CAD', minor: 884 }], revenue: [{ currency: 'CAD', minor: 8840 }] });
  expect(notBought).not.toBe(bought);
});
