import Router from '@koa/router';
import { requireAdmin, validate } from '@act/service-kit';
import { auditQuerySchema } from '@act/contracts/src/audit';
import type { AuditLog } from './service';

/** The Audit Log page's calls: admins only, read only (no route changes or deletes a record). */
export function auditRouter(log: AuditLog): Router {
  const router = new Router({ prefix: '/api/audit-log' });
  router.use(requireAdmin());

  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await log.page(await validate(auditQuerySchema, ctx.query));
  });

  router.get('/export.csv', async (ctx) => {
    const query = await validate(auditQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await log.csv(query);
  });

  return router;
}
