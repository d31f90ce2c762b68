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
    // A failed sign-in is recorded too: the name tried, never the password.
    ctx.state.audit = { action: 'login.failed', actor: { id: null, username, role: null }, after: { username }, target_kind: 'session', evenOnFailure: true };
    const user = await auth.login(username, password, ctx.ip);
    ctx.state.audit = { action: 'login.succeeded', actor: { id: user.id, username: user.username, role: user.role }, after: { username }, target_kind: 'session', target_id: user.id };
    ctx.session!.userId = user.id;
    // A new session id at sign-in, so an id planted before login (session fixation) is worth nothing after it.
    await ctx.session!.regenerate();
    ctx.body = currentUserDto(user);
  });

  router.post('/logout', async (ctx) => {
    const user = await sessions.currentUser(ctx);
    if (user) ctx.state.audit = { action: 'logout', actor: { id: user.id, username: user.username, role: user.role }, after: null, target_kind: 'session', target_id: user.id };
    ctx.session = null;
    ctx.body = { message: 'Logged out' } satisfies MessageDto;
  });

  return router;
}
