import { identitySecret } from '@act/service-kit';
import { testAdmin, testUser } from '@act/service-kit/testing';
import { contactCreated, dropDb, startEmail, type EmailUnderTest, HOOK_TIMEOUT_MS } from '../test/helpers';

/**
 * The Admin Tools calls (/api/test/*) wipe or send for everyone: on a production server only admins may use them,
 * and whatever the mode they act only on an empty body or a JSON object (a malformed probe must not empty every table).
 */
let dev: EmailUnderTest;
let prod: EmailUnderTest;

beforeAll(async () => {
  [dev, prod] = await Promise.all([
    startEmail('tools_dev'),
    // The identity secret the test signs with, since production refuses to start on the development default.
    startEmail('tools_prod', { NODE_ENV: 'production', IDENTITY_SECRET: identitySecret(), SECRETS_KEY: 'test-tools-secrets-key' }),
  ]);
}, HOOK_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all([dev?.svc.stop(), prod?.svc.stop()]);
  await Promise.all([dev && dropDb(dev.db), prod && dropDb(prod.db)]);
});

async function seed(email: EmailUnderTest, tag: string, n = 3): Promise<void> {
  for (let i = 1; i <= n; i++) {
    const r = await email.api('POST', '/api/webhook', { body: contactCreated(`${tag}-${i}`, `${tag}${i}@example.com`), user: null });
    expect(r.status).toBeLessThan(300);
  }
}

const counts = async (email: EmailUnderTest) => ({
  contacts: ((await email.api('GET', '/api/contacts')).body as unknown[]).length,
  events: ((await email.api('GET', '/api/webhook-events')).body as unknown[]).length,
});

describe('outside production (any signed-in user, as the spec shows the card to all)', () => {
  it('refuses a malformed or non-object body with a clear 400 and deletes nothing', async () => {
    await seed(dev, 'mal');
    const before = await counts(dev);
    expect(before.contacts).toBe(3);
    for (const raw of ['{"confirm":', 'not json', '[]', '"yes"', 'null', '1']) {
      for (const user of [testUser, testAdmin]) {
        const r = await dev.api('POST', '/api/test/clear-data', { raw, user });
        expect([raw, r.status]).toEqual([raw, 400]);
        expect(r.body.error).toMatch(/^(Invalid JSON body|Request body must be a JSON object)$/);
      }
      const sweep = await dev.api('POST', '/api/test/check-abandoned-carts', { raw, user: testUser });
      expect([raw, sweep.status]).toEqual([raw, 400]);
    }
    expect(await counts(dev)).toEqual(before);
  });

  it('lets a plain user clear with no body or an empty object', async () => {
    await seed(dev, 'plain');
    expect((await counts(dev)).contacts).toBeGreaterThan(0);
    const r = await dev.api('POST', '/api/test/clear-data', { user: testUser });
    expect(r).toMatchObject({ status: 200, body: { success: true } });
    expect(await counts(dev)).toEqual({ contacts: 0, events: 0 });
    await seed(dev, 'obj');
    expect(await dev.api('POST', '/api/test/clear-data', { body: {}, user: testUser })).toMatchObject({ status: 200 });
    expect((await counts(dev)).contacts).toBe(0);
    expect(await dev.api('POST', '/api/test/check-abandoned-carts', { user: testUser })).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe('NODE_ENV=production', () => {
  it('refuses a plain user with 403 saying only admins can, and deletes nothing', async () => {
    await seed(prod, 'p');
    const before = await counts(prod);
    expect(before.contacts).toBe(3);
    const r = await prod.api('POST', '/api/test/clear-data', { user: testUser });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Admin access required: on this server only administrators can clear all test data');
    const sweep = await prod.api('POST', '/api/test/check-abandoned-carts', { user: testUser });
    expect(sweep.status).toBe(403);
    expect(sweep.body.error).toMatch(/^Admin access required/);
    expect(await prod.api('POST', '/api/test/clear-data', { user: null })).toMatchObject({ status: 401 });
    expect(await counts(prod)).toEqual(before);
  });

  it('still refuses a malformed body from an admin, then lets the admin clear', async () => {
    const before = await counts(prod);
    expect(before.contacts).toBeGreaterThan(0);
    expect(await prod.api('POST', '/api/test/clear-data', { raw: '{oops', user: testAdmin })).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
    expect(await counts(prod)).toEqual(before);
    const r = await prod.api('POST', '/api/test/clear-data', { user: testAdmin });
    expect(r).toMatchObject({ status: 200, body: { success: true, cleared: { contacts: before.contacts } } });
    expect(await counts(prod)).toEqual({ contacts: 0, events: 0 });
    expect(await prod.api('POST', '/api/test/check-abandoned-carts', { body: {}, user: testAdmin })).toMatchObject({ status: 200 });
  });

  it("an integration's Clear Associated Contacts is an admin's too, and refuses a malformed body", async () => {
    const integ = (await prod.api('POST', '/api/webhook-integrations', { body: { name: 'Winter', funnel_id: 'winter' }, user: testAdmin })).body as { id: number };
    await prod.api('POST', '/api/webhook', { body: contactCreated('w-1', 'w1@example.com', 'winter'), user: null });
    const clear = (user: typeof testUser, raw?: string) => prod.api('POST', `/api/webhook-integrations/${integ.id}/clear-contacts`, { user, ...(raw ? { raw } : {}) });
    const refused = await clear(testUser);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Admin access required: on this server only administrators can clear an integration's contacts");
    expect(await clear(testAdmin, 'nope')).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
    expect((await counts(prod)).contacts).toBe(1);
    expect(await clear(testAdmin)).toMatchObject({ status: 200, body: { message: 'Cleared 1 contacts' } });
  });
});
