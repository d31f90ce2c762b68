import Router from '@koa/router';
import { auditChange, currentUser, parseId, requireAdmin, validateBody } from '@act/service-kit';
import type { MessageDto } from '@act/contracts/src/auth-api';
import { createUserSchema, resetPasswordSchema, updateUserSchema } from './schema';
import type { UsersService } from './service';

/** User management (spec /users): admins only, whatever the UI shows. */
export function usersRouter(users: UsersService): Router {
  const router = new Router({ prefix: '/api/users' });
  router.use(requireAdmin());

  router.get('/', async (ctx) => {
    ctx.body = await users.list();
  });

  router.post('/', async (ctx) => {
    const input = await validateBody(ctx, createUserSchema);
    ctx.status = 201;
    ctx.body = await users.create(input, currentUser(ctx)!.id);
  });

  router.patch('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'user id');
    const input = await validateBody(ctx, updateUserSchema);
    const before = await users.get(id);
    const after = await users.update(id, input, currentUser(ctx)!.id);
    ctx.body = after;
    auditChange(ctx, before, after);
  });

  router.post('/:id/reset-password', async (ctx) => {
    const id = parseId(ctx.params.id, 'user id');
    const { password } = await validateBody(ctx, resetPasswordSchema);
    await users.resetPassword(id, password);
    ctx.body = { message: 'Password reset successfully' } satisfies MessageDto;
    auditChange(ctx, {}, {}, { secrets: { password: { before: true, after: true } }, target_kind: 'user', target_id: id });
  });

  router.delete('/:id', async (ctx) => {
    const id = parseId(ctx.params.id, 'user id');
    const { username, role, email } = await users.get(id);
    await users.remove(id, currentUser(ctx)!.id);
    auditChange(ctx, { username, role, email }, null);
    ctx.body = { message: 'User deleted successfully' } satisfies MessageDto;
  });

  return router;
}
