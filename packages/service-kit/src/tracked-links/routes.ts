import Router from '@koa/router';
import type { Context } from 'koa';
import type { Connection } from 'mongoose';
import {
  emailClickTrackingSchema,
  smsClickTrackingSchema,
  TOO_MANY_CLICKS_TEXT,
  UNKNOWN_LINK_TEXT,
  UNKNOWN_LINK_TITLE,
  type EmailClickTracking,
  type SmsClickTracking,
} from '@act/contracts/src/click-tracking';
import { auditChange } from '../audit';
import { TooManyRequestsError } from '../errors';
import { requireUser } from '../identity';
import { createLimiter } from '../rate-limit';
import { validateBody } from '../validate';
import type { TrackedLinks } from './links';
import type { ClickTrackingSetting } from './setting';

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222"><h1 style="font-size:1.4rem">${title}</h1><p>${text}</p></body></html>`;

function answerPage(ctx: Context, status: number, title: string, text: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(title, text);
}

export interface TrackedLinkRouteOptions {
  /** Public calls per client address per minute. */
  perMinute: number;
  /** Where the per-address counts live (shared by every instance); absent: in memory. */
  conn?: Connection;
}

/**
 * Public (the gateway sends `/r/<token>` here, anonymous): the click. Counted, then a 302 to the target (the recovery
 * link with the code applied); a token nobody was given answers a short page with 404, never an error. Rate-limited
 * per client address like the other public routes; one indexed lookup per click.
 */
export function trackedLinkRouter(path: string, links: TrackedLinks, opts: TrackedLinkRouteOptions): Router {
  const router = new Router();
  const limiter = createLimiter({ points: opts.perMinute, durationSec: 60, ...(opts.conn && { store: { conn: opts.conn, name: 'tracked_links' } }) });
  router.get(`${path}/:token`, async (ctx) => {
    try {
      await limiter.consume(ctx.ip);
    } catch (err) {
      if (!(err instanceof TooManyRequestsError)) throw err;
      return answerPage(ctx, 429, 'Please wait a moment', TOO_MANY_CLICKS_TEXT);
    }
    const target = await links.click(String(ctx.params.token));
    if (!target) return answerPage(ctx, 404, UNKNOWN_LINK_TITLE, UNKNOWN_LINK_TEXT);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.redirect(target);
  });
  return router;
}

/**
 * GET/PUT the channel's switch (staff, like the campaign experiments it feeds): email `{ count_clicks_with }`, SMS
 * `{ track_clicks }`.
 */
export function clickTrackingRouter(path: string, channel: 'email' | 'sms', setting: ClickTrackingSetting): Router {
  const router = new Router();
  const shape = (on: boolean): EmailClickTracking | SmsClickTracking => (channel === 'email' ? { count_clicks_with: on ? 'link' : 'resend' } : { track_clicks: on });
  router.get(path, requireUser(), async (ctx) => {
    ctx.body = shape(await setting.ourLink());
  });
  router.put(path, requireUser(), async (ctx) => {
    const on =
      channel === 'email'
        ? (await validateBody(ctx, emailClickTrackingSchema)).count_clicks_with === 'link'
        : (await validateBody(ctx, smsClickTrackingSchema)).track_clicks;
    const before = shape(await setting.ourLink());
    const after = shape(await setting.setOurLink(on));
    auditChange(ctx, before, after, { target_kind: 'setting', target_id: 'click-tracking' });
    ctx.body = after;
  });
  return router;
}
