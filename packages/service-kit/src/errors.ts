/**
 * HTTP-free error classes: domain code throws these, one middleware maps them to `{ error }` answers.
 * `expose` follows Koa's convention: only exposed messages reach the client.
 */
export class HttpError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class BadRequestError extends HttpError {
  constructor(message = 'Bad request') {
    super(400, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Authentication required') {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = 'Admin access required') {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message = 'Conflict') {
    super(409, message);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(message = 'Too many requests, please try again later') {
    super(429, message);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'Service unavailable') {
    super(503, message);
  }
}

/** Mongo duplicate-key errors surface as 409 unless the domain layer handled them. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}

/** An upstream this service called (a provider, our own public URL) failed; the detail is logged, not answered. */
export class BadGatewayError extends HttpError {
  constructor(message = 'Upstream call failed') {
    super(502, message);
  }
}
