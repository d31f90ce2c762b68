import getRawBody from 'raw-body';
import type { Context, Next } from 'koa';
import { BadRequestError, PayloadTooLargeError } from './errors';

declare module 'koa' {
  interface Request {
    /** The body text as received, kept so a webhook can store a delivery even when it is not valid JSON. */
    rawBody?: string;
    /** The body bytes as received: webhook signatures are computed over these, not over the decoded text. */
    rawBytes?: Buffer;
    /** Set when the body could not be parsed; validateBody turns it into a 400. */
    bodyError?: string;
    body?: unknown;
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** JSON.parse that drops prototype-pollution keys at every depth. */
export function safeJsonParse(text: string): unknown {
  return JSON.parse(text, (key, value) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

export interface BodyOptions {
  /** Bytes; default 1 MB. */
  limit?: number;
}

/**
 * Reads every request body as text (capped), then parses JSON. A parse failure does not answer here:
 * routes that must record the raw delivery (webhooks) still run and decide; validateBody answers 400.
 */
export function bodyParser({ limit = 1024 * 1024 }: BodyOptions = {}) {
  return async function parseBody(ctx: Context, next: Next) {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const declared = Number(ctx.get('content-length') || 0);
    if (declared > limit) throw new PayloadTooLargeError();
    let bytes: Buffer;
    try {
      bytes = await getRawBody(ctx.req, { limit, length: declared || undefined });
    } catch (err) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') throw new PayloadTooLargeError();
      throw new BadRequestError('Could not read request body');
    }
    const text = bytes.toString('utf8');
    ctx.request.rawBytes = bytes;
    ctx.request.rawBody = text;
    if (text.trim() === '') {
      ctx.request.body = undefined;
    } else {
      try {
        ctx.request.body = safeJsonParse(text);
      } catch {
        ctx.request.bodyError = 'Invalid JSON body';
      }
    }
    return next();
  };
}
