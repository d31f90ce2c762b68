import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Contact } from '@act/contracts/src/email-api';
import { dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/** The documented ClickFunnels Classic purchase that did not go through (a declined card), two products. */
const failed = (): Record<string, unknown> =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../../packages/sources/src/clickfunnels-classic/fixtures/purchase-failed.json'), 'utf8'),
  );

let email: EmailUnderTest;
beforeAll(async () => {
  email = await startEmail('classic-cart');
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await email?.svc.stop();
  if (email) await dropDb(email.db);
});

const admin = (method: string, p: string, body?: unknown) => email.api(method, p, { body });

it('a ClickFunnels Classic purchase that did not go through becomes its buyer with the cart of its products', async () => {
  const r = await admin('POST', '/api/webhook-integrations', { name: 'Classic shop', funnel_id: 'classic-cart-1' });
  expect(r.status).toBe(201);
  const found = (await admin('GET', '/api/webhook-integrations')).body.find((i: { id: number }) => i.id === r.body.id);
  const delivered = await email.api('POST', new URL(found.webhook_url).pathname, {
    raw: JSON.stringify(failed()),
    headers: { 'content-type': 'application/json' },
    user: null,
  });
  expect(delivered).toMatchObject({ status: 200, body: { message: 'Contact created' } });
  const list = await admin('GET', `/api/contacts?page=1&pageSize=10&integration_id=${r.body.id}`);
  const contact = (list.body.items as Contact[]).find((c) => c.contact_id === '118823');
  expect(contact?.email).toBe('sam.rivera@example.com');
  expect(contact?.cart).toMatchObject({ currency: 'USD', total: 5695, more_items: 0, updated_at: '2026-11-19T18:41:12.000Z' });
  expect(contact!.cart!.items.map((i) => [i.name, i.quantity, i.unit_price, i.line_total])).toEqual([
    ['Starter kit', 1, 4700, 4700],
    ['Express shipping', 1, 995, 995],
  ]);
  const events = await admin('GET', '/api/webhook-events?page=1&pageSize=5&source=clickfunnels_classic');
  expect(events.body.items[0]).toMatchObject({ source: 'clickfunnels_classic' });
});
