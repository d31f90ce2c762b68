// Two svc-auth instances on one database, as behind the gateway's balancing: the sign-in throttle is one budget,
// not one per instance (its counts live in MongoDB).
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import { freshAddress, startAuth } from '../testing';

let a: ServiceProcess;
let b: ServiceProcess;
beforeAll(async () => {
  const db = testDbName('auth_two_instances');
  [a, b] = await Promise.all([startAuth('auth_two_instances', { MONGODB_DB: db }), startAuth('auth_two_instances', { MONGODB_DB: db })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

it('counts failures made on either instance against one budget per address', async () => {
  const address = freshAddress();
  const attempt = (svc: ServiceProcess, i: number) =>
    call(svc.url, 'POST', '/api/login', { user: null, headers: { 'x-forwarded-for': address }, body: { username: `nobody${i}`, password: 'wrong-pw' } });
  // Alternating: 3 failures on one, 2 on the other. In memory each would have seen fewer than 5.
  for (let i = 0; i < 5; i++) expect((await attempt(i % 2 ? b : a, i)).status).toBe(401);
  expect((await attempt(a, 5)).status).toBe(429);
  expect((await attempt(b, 6)).status).toBe(429);
  // Another address is untouched.
  const other = await call(b.url, 'POST', '/api/login', { user: null, headers: { 'x-forwarded-for': freshAddress() }, body: { username: 'nobody', password: 'wrong-pw' } });
  expect(other.status).toBe(401);
});
