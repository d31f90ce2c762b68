import type { Context } from 'koa';
import { setLocale, ValidationError, type AnySchema, type InferType } from 'yup';

// yup's default type error quotes the cast value and NaN; a client needs only what was wrong.
setLocale({ mixed: { notType: ({ path, type }: { path: string; type: string }) => `${path} must be a ${type}` } });
import { BadRequestError } from './errors';

const SCALARS = new Set(['string', 'number', 'boolean', 'date']);

/**
 * Refuses an object or array where the schema wants a scalar, before yup sees it: yup's casting calls the value's
 * own `toString` / `valueOf`, so `{"username":{"toString":1}}` threw a TypeError (a 500) on every body-taking
 * route. Walks nested objects and arrays the schema describes.
 */
export function rejectWrongShapes(schema: AnySchema, value: unknown, path = ''): void {
  if (value === null || value === undefined) return;
  const type = (schema as { type?: string }).type ?? 'mixed';
  const label = path || 'The request body';
  if (SCALARS.has(type)) {
    if (typeof value === 'object') throw new BadRequestError(`${label} must be a ${type}`);
    return;
  }
  if (type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) throw new BadRequestError(`${label} must be an object`);
    const fields = (schema as { fields?: Record<string, AnySchema> }).fields ?? {};
    for (const [key, child] of Object.entries(fields)) {
      if (Object.hasOwn(value, key))
        rejectWrongShapes(child, (value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    }
    return;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) throw new BadRequestError(`${label} must be an array`);
    const inner = (schema as { innerType?: AnySchema }).innerType;
    if (inner) value.forEach((item, i) => rejectWrongShapes(inner, item, `${path}[${i}]`));
  }
}

/** Validates a plain value; the first failing rule's message becomes the 400 answer. */
export async function validate<S extends AnySchema>(schema: S, value: unknown): Promise<InferType<S>> {
  rejectWrongShapes(schema, value);
  try {
    return await schema.validate(value, { abortEarly: true, stripUnknown: true });
  } catch (err) {
    if (err instanceof ValidationError) throw new BadRequestError(err.errors[0] ?? err.message);
    // A value yup could not even cast (a shape the walk above does not know): the client's input, not our fault.
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
