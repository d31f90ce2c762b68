import Router from '@koa/router';
import { BadRequestError, parseTimelinePaging, requireAdmin } from '@act/service-kit';
import { CONTACT_TARGETS, type ContactTarget, type staffTimeline } from './service';

const MAX_TARGETS = 40;

/** `?target=contact:12&target=sms-contact:4` (repeated), or a 400. */
function targetsOf(raw: unknown): ContactTarget[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 || list.length > MAX_TARGETS) throw new BadRequestError(`Name 1 to ${MAX_TARGETS} targets`);
  return list.map((t) => {
    const m = typeof t === 'string' ? /^(contact|sms-contact):(.{1,200})$/.exec(t) : null;
    if (!m) throw new BadRequestError(`target must be ${CONTACT_TARGETS.join(' or ')}:<id>`);
    return { kind: m[1] as ContactTarget['kind'], id: m[2]! };
  });
}

/**
 * The staff actions on a person's contacts, for the gateway's contact timeline only (`/internal` is never proxied
 * from `/api`). Admins only, as the Audit Log is: for anyone else the gateway shows the timeline without them.
 */
export function staffTimelineRouter(read: ReturnType<typeof staffTimeline>): Router {
  const router = new Router({ prefix: '/internal/timeline' });
  router.use(requireAdmin());
  router.get('/', async (ctx) => {
    const { cursor, limit } = parseTimelinePaging(ctx.query);
    ctx.body = await read(targetsOf(ctx.query.target), cursor, limit);
  });
  return router;
}
