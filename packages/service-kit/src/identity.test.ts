import type { Context } from 'koa';
import { identityMiddleware, signIdentity, IDENTITY_HEADER } from './identity';
import { UnauthorizedError } from './errors';

const SECRET = 'test-secret';
const user = { id: 7, username: 'ann', role: 'user' as const };

function ctxWith(header: string | undefined) {
  return { path: '/api/x', state: {} as Record<string, unknown>, get: (name: string) => (name === IDENTITY_HEADER ? (header ?? '') : '') } as unknown as Context & { state: Record<string, unknown> };
}

describe('identityMiddleware', () => {
  afterEach(() => jest.useRealTimers());

  it('accepts a signed header again and again (its check remembered), each time with the signed user', async () => {
    const check = identityMiddleware(SECRET);
    const header = signIdentity(user, SECRET);
    for (let i = 0; i < 3; i++) {
      const ctx = ctxWith(header);
      await check(ctx, async () => undefined);
      expect(ctx.state.identity).toMatchObject({ user });
    }
  });

  it('refuses a tampered or foreign header, even after the genuine one was accepted', async () => {
    const check = identityMiddleware(SECRET);
    const header = signIdentity(user, SECRET);
    await check(ctxWith(header), async () => undefined);
    const tampered = `${Buffer.from(JSON.stringify({ user: { ...user, role: 'admin' }, iat: Date.now() })).toString('base64url')}.${header.split('.')[1]}`;
    await expect(check(ctxWith(tampered), async () => undefined)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(check(ctxWith(signIdentity(user, 'other-secret')), async () => undefined)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(check(ctxWith(undefined), async () => undefined)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a remembered header once it is older than 60 s', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const check = identityMiddleware(SECRET);
    const header = signIdentity(user, SECRET);
    await check(ctxWith(header), async () => undefined);
    jest.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    await check(ctxWith(header), async () => undefined);
    jest.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    await expect(check(ctxWith(header), async () => undefined)).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
