import Router from '@koa/router';
import { requireUser, parseListQuery } from '@act/service-kit';
import type { EmailLogsService } from './service';
import { EMAIL_LOG_LIST_OPTIONS } from './service';

export function emailLogsRouter(logs: EmailLogsService): Router {
  const router = new Router({ prefix: '/api/email-logs' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await logs.list(parseListQuery(ctx.query, EMAIL_LOG_LIST_OPTIONS));
  });
  return router;
}
