// A purchase's used codes as the senders report them: Shopify orders' `discount_codes` ({ code, amount, type }),
// WooCommerce orders' `coupon_lines` ({ code, discount }); none reported, none kept.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ADAPTERS } from './index';

const fixture = (source: string, name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, source, 'fixtures', `${name}.json`), 'utf8'));

it('Shopify orders/create: discount_codes become the purchase fact’s discountCodes', () => {
  const order = { ...fixture('shopify', 'orders-create'), discount_codes: [{ code: 'CART-ABC123', amount: '12.50', type: 'percentage' }, { code: '' }, 'x'] };
  const r = ADAPTERS.shopify.parse!(order, { 'x-shopify-topic': 'orders/create', 'x-shopify-webhook-id': 'w-1' });
  expect(r).toMatchObject({ ok: true, fact: { kind: 'purchase', discountCodes: [{ code: 'CART-ABC123', amount: '12.50' }] } });
  const plain = ADAPTERS.shopify.parse!(fixture('shopify', 'orders-create'), { 'x-shopify-topic': 'orders/create', 'x-shopify-webhook-id': 'w-2' });
  expect(plain.ok && plain.fact.kind === 'purchase' && plain.fact.discountCodes).toBeUndefined();
});

it('WooCommerce paid order: coupon_lines become discountCodes', () => {
  const r = ADAPTERS.woocommerce.parse!(fixture('woocommerce', 'order-updated-processing'), { 'x-wc-webhook-topic': 'order.updated', 'x-wc-webhook-delivery-id': 'd-1' });
  expect(r).toMatchObject({ ok: true, fact: { kind: 'purchase', discountCodes: [{ code: 'welcome5', amount: '5.00' }] } });
});
