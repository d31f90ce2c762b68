import Router from '@koa/router';
import { requireUser } from '@act/service-kit';
import type { LogService } from './service';

export function logRouter(service: LogService): Router {
  const router = new Router();
  router.use(requireUser());
  router.get('/api/sms-logs', async (ctx) => {
    ctx.body = await service.list();
  });
  return router;
}
