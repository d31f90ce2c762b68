import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestError, HttpError, type Logger } from '@act/service-kit';
import {
  mergeParts,
  mergePeople,
  personQuery,
  TIMELINE_MAX_PAGE_SIZE,
  TIMELINE_PAGE_SIZE,
  type TimelinePage,
  type TimelinePart,
  type TimelineSide,
} from '@act/contracts/src/timeline';
import type { ServiceName } from './routes';
import type { Upstreams } from './upstreams/instances';

/**
 * The contact pages' timelines, answered by the gateway itself: `/api/contacts/:id/timeline` (an email contact) and
 * `/api/sms-contacts/:id/timeline` (an SMS contact). The route table would send them to one service; they need both.
 */
const TIMELINE_PATH = /^\/api\/(contacts|sms-contacts)\/(\d{1,15})\/timeline$/i;

const SERVICE_OF: Record<TimelineSide, ServiceName> = { email: 'svc-email', sms: 'svc-sms' };
/** Holds every service's audit records, so the staff actions on a person's contacts. */
const STAFF_SERVICE: ServiceName = 'svc-auth';
/** svc-auth's limit on the targets of one ask. */
const MAX_TARGETS = 40;

/** The side and contact id of a timeline path, or null for any other path. */
export function timelineTarget(path: string): { side: TimelineSide; id: number } | null {
  const m = TIMELINE_PATH.exec(path);
  return m ? { side: m[1]!.toLowerCase() === 'contacts' ? 'email' : 'sms', id: Number(m[2]) } : null;
}

class ServiceUnavailable extends HttpError {
  constructor(service: ServiceName) {
    super(503, `${service} unavailable`);
  }
}

/** A service's answer that is not a part: relayed as it came (a 404 for an unknown contact, a 400, a 401). */
class Relayed extends HttpError {}

export interface TimelineOptions {
  upstreams: Pick<Upstreams, 'pick'>;
  timeoutMs: number;
  logger: Logger;
}

/**
 * One call from the browser, two from here: the contact's own side first (it knows the person: addresses, phones,
 * the sender's contact ids), then the other side asked by that person; each answers for its own data over its
 * internal route, with the caller's signed identity. The parts are merged newest first; `?before=` (a cursor from a
 * previous page) goes to every part unchanged, since all order by the same (instant, key). svc-auth adds the staff
 * actions on the person's contacts (admins only). The other side not answering
 * leaves its entries out and says so (`unavailable`); the contact's own side not answering is a 503.
 */
export function createTimeline({ upstreams, timeoutMs, logger }: TimelineOptions) {
  async function part<T = TimelinePart>(service: ServiceName, query: URLSearchParams, identity: string, requestId: string): Promise<T> {
    const { url } = upstreams.pick(service);
    let res: Response;
    try {
      res = await fetch(`${url}/internal/timeline?${query}`, {
        headers: { 'x-act-identity': identity, 'x-request-id': requestId, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      logger.warn({ service, err: (err as Error).message }, 'timeline part unavailable');
      throw new ServiceUnavailable(service);
    }
    const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
    if (res.status === 200 && Array.isArray((body as { entries?: unknown } | null)?.entries)) return body!;
    if (res.status >= 500 || !body) throw new ServiceUnavailable(service);
    throw new Relayed(res.status, body.error ?? `${service} answered ${res.status}`);
  }

  return async function timeline(target: { side: TimelineSide; id: number }, search: URLSearchParams, identity: string, requestId: string): Promise<TimelinePage> {
    const paging = new URLSearchParams();
    const limitText = search.get('limit');
    const limit = limitText === null ? TIMELINE_PAGE_SIZE : /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= TIMELINE_MAX_PAGE_SIZE)) throw new BadRequestError(`limit must be a whole number from 1 to ${TIMELINE_MAX_PAGE_SIZE}`);
    paging.set('limit', String(limit));
    const before = search.get('before');
    if (before) paging.set('before', before);

    const own = await part(SERVICE_OF[target.side], new URLSearchParams([['contact', String(target.id)], ...paging]), identity, requestId);
    const otherSide: TimelineSide = target.side === 'email' ? 'sms' : 'email';
    let other: TimelinePart | null = null;
    try {
      other = await part(SERVICE_OF[otherSide], new URLSearchParams([...personQuery(own.person), ...paging]), identity, requestId);
    } catch (err) {
      if (!(err instanceof ServiceUnavailable)) throw err;
    }
    const parts = other ? [own, other] : [own];
    const contacts = parts.flatMap((p) => p.contacts);
    // Staff actions: svc-auth holds the audit records of both sides; admins only, as the Audit Log (for anyone
    // else, and while svc-auth does not answer, the page shows the rest).
    const targets = contacts.flatMap((c) => {
      const kind = c.side === 'email' ? 'contact' : 'sms-contact';
      return [`${kind}:${c.id}`, `${kind}:${c.contact_id}`];
    });
    let staff: Pick<TimelinePart, 'entries' | 'more'> | null = null;
    if (targets.length) {
      try {
        staff = await part(STAFF_SERVICE, new URLSearchParams([...[...new Set(targets)].slice(0, MAX_TARGETS).map((t) => ['target', t]), ...paging]), identity, requestId);
      } catch (err) {
        if (!(err instanceof HttpError) || (err.status !== 403 && err.status !== 401)) logger.warn({ err: (err as Error).message }, 'staff actions left out of a timeline');
      }
    }
    const { entries, next } = mergeParts(staff ? [...parts, staff] : parts, limit);
    return {
      contact: own.contact!,
      contacts,
      person: other ? mergePeople(own.person, other.person) : own.person,
      entries,
      next,
      unavailable: other ? [] : [otherSide],
    };
  };
}

/** Serves a timeline path on the raw request: the same `{ error }` answers as the proxied calls. */
export async function serveTimeline(
  res: ServerResponse,
  req: IncomingMessage,
  answer: () => Promise<TimelinePage>,
): Promise<void> {
  let status = 200;
  let body: string;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    status = 405;
    body = JSON.stringify({ error: `Method ${String(req.method).slice(0, 20)} is not allowed` });
  } else {
    try {
      body = JSON.stringify(await answer());
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      status = err.status;
      body = JSON.stringify({ error: err.message });
    }
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
