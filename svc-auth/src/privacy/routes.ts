import Router from '@koa/router';
import { currentUser, erasedEmail, erasedPhone, parseId, requireAdmin, validateBody } from '@act/service-kit';
import { privacyRequestSchema, type PrivacyKind } from '@act/contracts/src/privacy';
import type { PrivacyRequests } from './service';

/** The Privacy Requests page's calls: admins only. */
export function privacyRouter(privacy: PrivacyRequests): Router {
  const router = new Router({ prefix: '/api/privacy-requests' });
  router.use(requireAdmin());

  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await privacy.list();
  });

  router.post('/', async (ctx) => {
    const input = await validateBody(ctx, privacyRequestSchema);
    const kind = input.kind as PrivacyKind;
    const email = input.email || null;
    const phone = input.phone || null;
    // The erase is recorded like any request, but with the person in erased form: the audit log must not keep
    // in clear what the request removes everywhere else.
    if (kind === 'erase') ctx.state.audit = { after: { kind, email: email && erasedEmail(email), phone: phone && erasedPhone(phone) } };
    ctx.status = 201;
    ctx.body = await privacy.create({ kind, email, phone }, currentUser(ctx)!.username);
  });

  router.get('/:id', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await privacy.get(parseId(ctx.params.id, 'request id'));
  });

  router.get('/:id/export.json', async (ctx) => {
    const id = parseId(ctx.params.id, 'request id');
    const doc = await privacy.exportOf(id);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="privacy-export-${id}.json"`);
    ctx.body = doc;
  });

  return router;
}
