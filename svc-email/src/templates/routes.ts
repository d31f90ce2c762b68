import Router from '@koa/router';
import type { Connection } from 'mongoose';
import { requireUser } from '@act/service-kit';
import { emailTemplateModel, toTemplateSummary } from './model';

export function templatesRouter(conn: Connection): Router {
  const router = new Router({ prefix: '/api/resend/templates' });
  router.use(requireUser());
  router.get('/', async (ctx) => {
    const docs = await emailTemplateModel(conn).collection.find({}, { projection: { _id: 0, id: 1, name: 1, active: 1, type: 1 } }).sort({ id: 1 }).toArray();
    ctx.body = docs.map((d) => toTemplateSummary(d as never));
  });
  return router;
}
