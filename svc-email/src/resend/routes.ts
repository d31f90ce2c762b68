import Router from '@koa/router';
import { auditChange, auditSkip, requireAdmin, requireUser, validateBody } from '@act/service-kit';
import { resendConfigRequestSchema } from '@act/contracts/src/email-api';
import type { Connection } from 'mongoose';
import type { ResendProvider } from '../providers/resend';
import type { ResendService } from './service';
import { resendStatus } from './status';

export function resendRouter(resend: ResendService, provider: ResendProvider, conn: Connection): Router {
  const router = new Router();
  // Every page whose work needs Resend asks this: configured, and how many steps wait (ProviderStatusResponse).
  router.get('/api/resend/status', requireUser(), async (ctx) => {
    ctx.body = await resendStatus(conn, provider, resend.liveSending);
  });
  // Status only: whether a key is set and where it comes from, the from-address; never the key.
  router.get('/api/resend/config', requireUser(), async (ctx) => {
    ctx.body = await resend.config();
  });
  // Stored values, for deployments that cannot set the environment; the environment still wins.
  router.post('/api/resend/config', requireAdmin(), async (ctx) => {
    const input = await validateBody(ctx, resendConfigRequestSchema);
    const before = await resend.config();
    const changed = await provider.saveStored(input);
    const after = await resend.config();
    ctx.body = after;
    // Stored values are write-only: the record says only that one was set, cleared or replaced, never the value.
    const secrets: Record<string, { before: boolean; after: boolean }> = {};
    if (changed.apiKey) secrets.apiKey = { before: before.apiKeyConfigured, after: after.apiKeyConfigured };
    if (changed.from) secrets.from = { before: before.stored.from !== null, after: after.stored.from !== null };
    if (changed.webhookSecret) secrets.webhookSecret = { before: before.webhookSecretConfigured, after: after.webhookSecretConfigured };
    if (Object.keys(secrets).length === 0) return auditSkip(ctx);
    auditChange(ctx, before, after, {
      secrets,
      ignore: ['message', 'oneClickWarning', 'configured', 'apiKeyConfigured', 'apiKeySource', 'webhookSecretConfigured'],
      target_kind: 'provider-settings',
      target_id: 'resend',
    });
  });
  // The result of the test is the answer (200 either way): `success` says whether Resend accepted the key.
  router.post('/api/resend/test-connection', requireUser(), async (ctx) => {
    ctx.body = await resend.testConnection();
    // A probe: it changes nothing, so it is no staff change (docs/privacy.md).
    auditSkip(ctx);
  });
  return router;
}
