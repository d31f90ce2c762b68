import type { Context } from 'koa';
import { setLocale, ValidationError, type AnySchema, type InferType } from 'yup';

// yup's default type error quotes the cast value and NaN; a client needs only what was wrong.
setLocale({ mixed: { notType: ({ path, type }: { path: string; type: string }) => `${path} must be a ${type}` } });
import { BadRequestError } from './errors';

/**
 * A copy of a parsed JSON value in which no object has its own `toString` / `valueOf` (JSON cannot make functions,
 * so such keys only ever hold data). yup casts a scalar field by calling them, so `{"username":{"toString":1}}`
 * threw a TypeError (a 500) on every body-taking route; without them the object is an ordinary wrong type, refused
 * with the field's own message.
 */
export function withoutCraftedConversions(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withoutCraftedConversions);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'toString' || k === 'valueOf') continue;
    out[k] = withoutCraftedConversions(v);
  }
  return out;
}

/** Validates a plain value; the first failing rule's message becomes the 400 answer. */
export async function validate<S extends AnySchema>(schema: S, value: unknown): Promise<InferType<S>> {
  try {
    return await schema.validate(withoutCraftedConversions(value), { abortEarly: true, stripUnknown: true });
  } catch (err) {
    if (err instanceof ValidationError) throw new BadRequestError(err.errors[0] ?? err.message);
    // A value yup could not even cast: the client's input, not a fault of ours.
    if (err instanceof TypeError) throw new BadRequestError('The request body has a value of the wrong type');
    throw err;
  }
}

/** Validates the parsed JSON body; a missing or malformed body is a clear 400, never a crash. */
export async function validateBody<S extends AnySchema>(ctx: Context, schema: S): Promise<InferType<S>> {
  if (ctx.request.bodyError) throw new BadRequestError(ctx.request.bodyError);
  const body = ctx.request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('Request body must be a JSON object');
  }
  return validate(schema, body);
}

/**
 * For routes whose body may be left out (defaults apply): no body validates as `{}`, but a body that is
 * sent must still be a well-formed JSON object, so a malformed one is refused as on every other route.
 */
export async function validateOptionalBody<S extends AnySchema>(ctx: Context, schema: S): Promise<InferType<S>> {
  if (ctx.request.bodyError) throw new BadRequestError(ctx.request.bodyError);
  if (ctx.request.body === undefined) return validate(schema, {});
  return validateBody(ctx, schema);
}

/** Route ids are positive integers; anything else is a 400 rather than a query with junk. */
export function parseId(raw: string | undefined, label = 'id'): number {
  const n = Number(raw);
  if (!raw || !/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new BadRequestError(`Invalid ${label}`);
  return n;
}
