import Router from '@koa/router';
import { requireUser } from '@act/service-kit';
import { SMS_LOG_STATUS_FILTERS } from '@act/contracts/src/sms-api';
import { LOG_LIST_OPTIONS, type LogService } from './service';
import { oneOf, parseSmsPageQuery } from '../paging';

export function logRouter(service: LogService): Router {
  const router = new Router();
  router.use(requireUser());
  // Plain: the spec's list. `?page=` (with pageSize, search, status): one page for the screen.
  router.get('/api/sms-logs', async (ctx) => {
    const q = parseSmsPageQuery(ctx.query, LOG_LIST_OPTIONS, ['status']);
    if (!q) {
      ctx.body = await service.list();
      return;
    }
    ctx.body = await service.page(q, oneOf(ctx.query.status, 'status', SMS_LOG_STATUS_FILTERS));
  });
  return router;
}
