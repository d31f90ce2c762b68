import Router from '@koa/router';
import { auditChange, currentUser, requireUser, validateBody } from '@act/service-kit';
import type { MessageDto } from '@act/contracts/src/auth-api';
import { currentUserDto } from '../auth/routes';
import { changePasswordSchema, profileSchema } from './schema';
import type { ProfileService } from './service';

export function profileRouter(profile: ProfileService): Router {
  const router = new Router({ prefix: '/api/profile' });
  router.use(requireUser());

  router.patch('/', async (ctx) => {
    const input = await validateBody(ctx, profileSchema);
    const id = currentUser(ctx)!.id;
    const before = currentUserDto(await profile.get(id));
    const after = currentUserDto(await profile.update(id, input));
    ctx.body = after;
    // Saving the form unchanged is no change and leaves no record.
    auditChange(ctx, before, after, { target_kind: 'user', target_id: id });
  });

  router.post('/change-password', async (ctx) => {
    const { currentPassword, newPassword } = await validateBody(ctx, changePasswordSchema);
    // The session making the change may be absent (a call without the cookie); then every session ends.
    await profile.changePassword(currentUser(ctx)!.id, currentPassword, newPassword, ctx.session?.externalKey);
    ctx.body = { message: 'Password changed successfully' } satisfies MessageDto;
    auditChange(ctx, {}, {}, { secrets: { password: { before: true, after: true } }, target_kind: 'user', target_id: currentUser(ctx)!.id });
  });

  return router;
}
