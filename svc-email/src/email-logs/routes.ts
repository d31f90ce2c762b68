import Router from '@koa/router';
import { requireUser } from '@act/service-kit';
import type { EmailLogsService } from './service';
import { EMAIL_LOG_LIST_OPTIONS } from './service';
import { parseListQuery } from '../lib/list';

export function emailLogsRouter(logs: EmailLogsService): Router {
  const router = new Router({ prefix: '/api/email-logs' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    ctx.body = await logs.list(parseListQuery(ctx.query, EMAIL_LOG_LIST_OPTIONS));
  });
  return router;
}
