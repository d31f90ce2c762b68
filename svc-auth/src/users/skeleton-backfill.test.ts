import { MongoClient } from 'mongodb';
import { call, testDbName, type ServiceProcess } from '@act/service-kit/testing';
import { ADMIN_PASSWORD, asIdentity, login, startAuth } from '../testing';

jest.setTimeout(90_000);

const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';

/**
 * Skeletons are stored per account (a unique index decides races). One written by an older comparison (another
 * Unicode release, another library) is recomputed at start, or new names would be compared with a stale value.
 */
it('recomputes a stored skeleton that differs from the current comparison, so look-alikes of that account are refused', async () => {
  const db = testDbName('auth_skeletons');
  let svc: ServiceProcess | null = await startAuth('skeletons', { MONGODB_DB: db });
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    await svc.stop();
    svc = null;
    // What an older comparison stored for admin (the previous library folded "admin" to itself, not to "adrnin").
    const users = client.db(db).collection('users');
    expect((await users.updateOne({ username: 'admin' }, { $set: { username_skeleton: 'admin' } })).matchedCount).toBe(1);
    svc = await startAuth('skeletons', { MONGODB_DB: db });
    const admin = (await login(svc.url, 'admin', ADMIN_PASSWORD)).user;
    const r = await call(svc.url, 'POST', '/api/users', {
      user: asIdentity(admin),
      body: { username: 'adm\u0131n', password: 'look-pass', role: 'user' },
    });
    expect(r).toMatchObject({ status: 409, body: { error: 'Username looks like an existing one: choose a clearly different name' } });
    expect((await users.findOne({ username: 'admin' }))?.username_skeleton).not.toBe('admin');
  } finally {
    await svc?.stop();
    await client.db(db).dropDatabase();
    await client.close();
  }
});
