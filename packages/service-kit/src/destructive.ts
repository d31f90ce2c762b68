import type { Context, Next } from 'koa';
import { object } from 'yup';
import { ForbiddenError, UnauthorizedError } from './errors';
import { currentUser } from './identity';
import { validateOptionalBody } from './validate';

/**
 * Guard of the calls that wipe data for everyone (Admin Tools, Clear All Contacts). The spec shows their buttons to
 * every user and says nothing of the server; on a production server (NODE_ENV=production) a plain user's click
 * must not empty the tables, so there only admins pass. Elsewhere (development, tests, demos) any signed-in user
 * may, as the spec's screens suggest. `what` completes the refusal, which the screens show next to the button.
 */
export function requireAdminInProduction(what: string, production = process.env.NODE_ENV === 'production') {
  return async function mustBeAdminInProduction(ctx: Context, next: Next) {
    const user = currentUser(ctx);
    if (!user) throw new UnauthorizedError();
    if (production && user.role !== 'admin') {
      throw new ForbiddenError(`Admin access required: on this server only administrators can ${what}`);
    }
    return next();
  };
}

const NO_FIELDS = object({});

/**
 * The spec sends these commands with no payload. An empty body or a JSON object is accepted (its fields are
 * ignored); anything else (unparseable text, an array, a string) is a 400 before anything is touched, so a probe
 * or a client sending the wrong thing never triggers the action.
 */
export async function requireCommandBody(ctx: Context): Promise<void> {
  await validateOptionalBody(ctx, NO_FIELDS);
}
