import type { Connection } from 'mongoose';
import Router from '@koa/router';
import type { Context } from 'koa';
import { auditChange, auditSkip, BadRequestError, rateLimit, requireAdmin, validate, validateBody } from '@act/service-kit';
import {
  quickAddUnsubscribeRequestSchema,
  removeUnsubscribeRequestSchema,
  unsubscribeRequestSchema,
} from '@act/contracts/src/email-api';
import { withoutTrailingSlashes } from './links';
import { UNSUBSCRIBE_MESSAGES, type UnsubscribeService } from './service';
import { verifyUnsubscribeToken } from './token';

export interface UnsubscribeRouteOptions {
  secret: string;
  publicUrl: string;
  /** Where the per-address counts live (shared by every instance); absent: in memory. */
  conn?: Connection;
  /** Public calls per client address per minute. */
  publicPerMinute: number;
}

const INVALID_LINK = 'Invalid unsubscribe link';
const checkQuerySchema = unsubscribeRequestSchema.pick(['email']);

/**
 * Public (the gateway routes /api/unsubscribe as anonymous): the page's check and confirm, and the RFC 8058
 * one-click POST of the List-Unsubscribe header. Rate-limited per client address; the answers say only what the
 * spec's page needs (subscribed or not), never when, why or anything else about the address.
 */
export function unsubscribePublicRouter(service: UnsubscribeService, opts: UnsubscribeRouteOptions): Router {
  const router = new Router({ prefix: '/api/unsubscribe' });
  const limit = rateLimit({
    points: opts.publicPerMinute,
    durationSec: 60,
    ...(opts.conn && { store: { conn: opts.conn, name: 'unsubscribe' } }),
  });

  router.get('/', limit, async (ctx) => {
    const { email } = await validate(checkQuerySchema, { email: ctx.query.email });
    ctx.body = await service.check(email);
  });

  router.post('/', limit, async (ctx) => {
    const { email, reason } = await validateBody(ctx, unsubscribeRequestSchema);
    const { status } = await service.add(email, reason ?? null, 'page');
    ctx.body = {
      status,
      message: status === 'unsubscribed' ? UNSUBSCRIBE_MESSAGES.unsubscribed : UNSUBSCRIBE_MESSAGES.already,
    };
  });

  // The mail client's one-click button: POST with body `List-Unsubscribe=One-Click` (form-encoded, so the JSON
  // body parser's complaint is ignored here). The token alone says which address.
  router.post('/one-click', limit, async (ctx) => {
    const email = verifyUnsubscribeToken(ctx.query.token, opts.secret);
    if (!email) throw new BadRequestError(INVALID_LINK);
    const { status } = await service.add(email, 'One-click unsubscribe from an email', 'one_click');
    ctx.body = {
      status,
      message: status === 'unsubscribed' ? UNSUBSCRIBE_MESSAGES.unsubscribed : UNSUBSCRIBE_MESSAGES.already,
    };
  });

  // A client without one-click support opens the link: never unsubscribe on a GET (link scanners prefetch
  // them); send the reader to the confirm page instead.
  router.get('/one-click', limit, async (ctx: Context) => {
    const email = verifyUnsubscribeToken(ctx.query.token, opts.secret);
    const base = withoutTrailingSlashes(opts.publicUrl);
    ctx.redirect(email ? `${base}/unsubscribe?email=${encodeURIComponent(email)}` : `${base}/unsubscribe`);
  });

  return router;
}

/** The list for /unsubscribe-management: admin only on the server, whatever the UI shows. */
export function unsubscribeAdminRouter(service: UnsubscribeService): Router {
  const router = new Router();
  router.get('/api/direct-unsubscribes', requireAdmin(), async (ctx) => {
    ctx.body = await service.list();
  });
  router.post('/api/email-unsubscribes/quick-add', requireAdmin(), async (ctx) => {
    const { email, reason } = await validateBody(ctx, quickAddUnsubscribeRequestSchema);
    const { status, entry } = await service.add(email, reason ?? null, 'admin');
    ctx.status = status === 'unsubscribed' ? 201 : 200;
    // An address already on the list: nothing changed, no record.
    if (status === 'unsubscribed') auditChange(ctx, null, entry, { target_kind: 'email-unsubscribe', target_id: entry.id });
    else auditSkip(ctx);
    ctx.body = {
      success: true,
      status,
      message: status === 'unsubscribed' ? UNSUBSCRIBE_MESSAGES.added : UNSUBSCRIBE_MESSAGES.addedAlready,
      entry,
    };
  });
  router.post('/api/email-unsubscribes/remove', requireAdmin(), async (ctx) => {
    const { id } = await validateBody(ctx, removeUnsubscribeRequestSchema);
    const entry = await service.remove(id);
    auditChange(ctx, entry, null, { target_kind: 'email-unsubscribe', target_id: entry.id });
    ctx.body = { success: true, message: UNSUBSCRIBE_MESSAGES.removed, entry };
  });
  return router;
}
