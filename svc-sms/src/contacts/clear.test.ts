import { identitySecret } from '@act/service-kit';
import { call, testAdmin, testUser, type ServiceProcess } from '@act/service-kit/testing';
import { createFunnel, dropDb, dropStream, postContact, smsTestEnv, startSms, type SmsTestEnv } from '../test/helpers';

/**
 * 'Clear All Contacts' empties the SMS contacts for everyone: on a production server only admins may, and in any
 * mode only an empty body or a JSON object triggers it (a malformed probe must not).
 */
let devEnv: SmsTestEnv;
let prodEnv: SmsTestEnv;
let dev: ServiceProcess;
let prod: ServiceProcess;

beforeAll(async () => {
  devEnv = smsTestEnv('clear_dev', null);
  prodEnv = smsTestEnv('clear_prod', null, { NODE_ENV: 'production', IDENTITY_SECRET: identitySecret(), SECRETS_KEY: 'sms-clear-secrets-key' });
  [dev, prod] = await Promise.all([startSms(devEnv), startSms(prodEnv)]);
  await Promise.all([createFunnel(dev.url, 'clear-funnel', [{ message: 'Hi' }], 600), createFunnel(prod.url, 'clear-funnel', [{ message: 'Hi' }], 600)]);
}, 200_000);
afterAll(async () => {
  await Promise.all([dev?.stop(), prod?.stop()]);
  for (const t of [devEnv, prodEnv]) {
    if (!t) continue;
    await dropDb(t.db);
    await dropStream(t.natsPrefix);
  }
});

async function seed(url: string, tag: string, n = 3) {
  for (let i = 1; i <= n; i++) {
    const r = await postContact(url, 'clear-funnel', `${tag}-${i}`, `+1555301${String(i).padStart(4, '0')}`);
    expect(r.status).toBe(200);
  }
}
const contactCount = async (url: string) => ((await call(url, 'GET', '/api/sms-contacts')).body as unknown[]).length;

describe('outside production', () => {
  it('refuses a malformed or non-object body with a clear 400 and deletes nothing', async () => {
    await seed(dev.url, 'mal');
    expect(await contactCount(dev.url)).toBe(3);
    for (const raw of ['{"all":', 'clear', '[]', '"yes"', 'null']) {
      const r = await call(dev.url, 'POST', '/api/sms-contacts/clear', { raw, user: testUser });
      expect([raw, r.status]).toEqual([raw, 400]);
      expect(r.body.error).toMatch(/^(Invalid JSON body|Request body must be a JSON object)$/);
    }
    expect(await contactCount(dev.url)).toBe(3);
  });

  it('lets a plain user clear with no body', async () => {
    const r = await call(dev.url, 'POST', '/api/sms-contacts/clear', { user: testUser });
    expect(r).toMatchObject({ status: 200, body: { success: true, message: 'All SMS contacts cleared', deleted: 3 } });
    expect(await contactCount(dev.url)).toBe(0);
  });
});

describe('NODE_ENV=production', () => {
  it('refuses a plain user with 403 saying only admins can, and lets an admin clear', async () => {
    await seed(prod.url, 'p', 2);
    const r = await call(prod.url, 'POST', '/api/sms-contacts/clear', { user: testUser });
    expect(r).toMatchObject({ status: 403, body: { error: 'Admin access required: on this server only administrators can clear all SMS contacts' } });
    expect(await contactCount(prod.url)).toBe(2);
    expect(await call(prod.url, 'POST', '/api/sms-contacts/clear', { raw: '{bad', user: testAdmin })).toMatchObject({ status: 400 });
    expect(await contactCount(prod.url)).toBe(2);
    const ok = await call(prod.url, 'POST', '/api/sms-contacts/clear', { body: {}, user: testAdmin });
    expect(ok).toMatchObject({ status: 200, body: { success: true, message: 'All SMS contacts cleared', deleted: 2 } });
    expect(await contactCount(prod.url)).toBe(0);
  });
});
