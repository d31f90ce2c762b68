import type { Context } from 'koa';
import { BadRequestError } from '@act/service-kit';

/** The parsed JSON body as a plain object, or a 400 (malformed JSON, missing body, array, scalar). */
export function jsonObject(ctx: Context): Record<string, unknown> {
  if (ctx.request.bodyError) throw new BadRequestError(ctx.request.bodyError);
  return requireObject(ctx.request.body);
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
    throw new BadRequestError('Request body must be a JSON object');
  return body as Record<string, unknown>;
}
