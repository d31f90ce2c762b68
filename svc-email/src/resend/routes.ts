import Router from '@koa/router';
import { requireAdmin, requireUser, validateBody } from '@act/service-kit';
import { resendConfigRequestSchema } from '@act/contracts/src/email-api';
import type { ResendProvider } from '../providers/resend';
import type { ResendService } from './service';

export function resendRouter(resend: ResendService, provider: ResendProvider): Router {
  const router = new Router();
  // Status only: whether a key is set and where it comes from, the from-address; never the key.
  router.get('/api/resend/config', requireUser(), async (ctx) => {
    ctx.body = await resend.config();
  });
  // Stored values, for deployments that cannot set the environment; the environment still wins.
  router.post('/api/resend/config', requireAdmin(), async (ctx) => {
    const input = await validateBody(ctx, resendConfigRequestSchema);
    await provider.saveStored(input);
    ctx.body = await resend.config();
  });
  // The result of the test is the answer (200 either way): `success` says whether Resend accepted the key.
  router.post('/api/resend/test-connection', requireUser(), async (ctx) => {
    ctx.body = await resend.testConnection();
  });
  return router;
}
