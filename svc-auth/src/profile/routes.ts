import Router from '@koa/router';
import { currentUser, requireUser, validateBody } from '@act/service-kit';
import type { MessageDto } from '@act/contracts/src/auth-api';
import { currentUserDto } from '../auth/routes';
import { changePasswordSchema, profileSchema } from './schema';
import type { ProfileService } from './service';

export function profileRouter(profile: ProfileService): Router {
  const router = new Router({ prefix: '/api/profile' });
  router.use(requireUser());

  router.patch('/', async (ctx) => {
    const input = await validateBody(ctx, profileSchema);
    ctx.body = currentUserDto(await profile.update(currentUser(ctx)!.id, input));
  });

  router.post('/change-password', async (ctx) => {
    const { currentPassword, newPassword } = await validateBody(ctx, changePasswordSchema);
    // The session making the change may be absent (a call without the cookie); then every session ends.
    await profile.changePassword(currentUser(ctx)!.id, currentPassword, newPassword, ctx.session?.externalKey);
    ctx.body = { message: 'Password changed successfully' } satisfies MessageDto;
  });

  return router;
}
