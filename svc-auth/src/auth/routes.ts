import Router from '@koa/router';
import { validateBody } from '@act/service-kit';
import type { CurrentUserDto, MessageDto, SignedOutDto } from '@act/contracts/src/auth-api';
import { toUserDto, type UserDoc } from '../users/model';
import type { SessionsService } from '../sessions';
import { loginSchema } from './schema';
import type { AuthService } from './service';

export const currentUserDto = (user: UserDoc): CurrentUserDto => ({ authenticated: true, ...toUserDto(user) });

/** Public calls (no user needed): they work from the session cookie, not from the gateway's identity. */
export function authRouter(auth: AuthService, sessions: SessionsService): Router {
  const router = new Router({ prefix: '/api' });

  router.get('/user', async (ctx) => {
    const user = await sessions.currentUser(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = user ? currentUserDto(user) : ({ authenticated: false } satisfies SignedOutDto);
  });

  router.post('/login', async (ctx) => {
    const { username, password } = await validateBody(ctx, loginSchema);
    const user = await auth.login(username, password, ctx.ip);
    ctx.session!.userId = user.id;
    // A new session id at sign-in, so an id planted before login (session fixation) is worth nothing after it.
    await ctx.session!.regenerate();
    ctx.body = currentUserDto(user);
  });

  router.post('/logout', async (ctx) => {
    ctx.session = null;
    ctx.body = { message: 'Logged out' } satisfies MessageDto;
  });

  return router;
}
