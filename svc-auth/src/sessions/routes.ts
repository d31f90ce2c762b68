import Router from '@koa/router';
import type { SessionsService } from './service';

/** Internal: the gateway asks who a cookie belongs to. Behind the identity check like every other route. */
export function sessionsRouter(sessions: SessionsService): Router {
  const router = new Router({ prefix: '/internal' });
  router.get('/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await sessions.identityFromCookie(ctx);
  });
  return router;
}
