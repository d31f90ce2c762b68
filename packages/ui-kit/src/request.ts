/**
 * The one request client of the front-ends. It reads like section 7 "Shared request behaviour"
 * and section 8 "General" of spec/email-and-shell.md; every rule below is a line of the spec.
 *
 * - All calls send cookies (`credentials: 'include'`); a body, when present, is JSON.
 * - A response that is JSON is parsed and returned.
 * - An ok response whose JSON cannot be parsed gives `{ success: true, message: 'Operation successful' }`
 *   (data loads: 'Data retrieved successfully').
 * - A not-ok response whose JSON cannot be parsed fails with 'Invalid JSON response from server'.
 * - A response that is not JSON is returned as is (the `Response` object).
 * - Any other not-ok response fails with "<status>: <body text, or the status text when empty>".
 * - Data loads are a GET on the path; a 401 is an error unless the load is told to yield null.
 */

export const OPERATION_SUCCESSFUL = 'Operation successful';
export const DATA_RETRIEVED = 'Data retrieved successfully';
export const INVALID_JSON = 'Invalid JSON response from server';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an ok response with an unparsable JSON body turns into. */
export interface SuccessFallback {
  success: true;
  message: string;
}

/**
 * A failed call. `message` is exactly the spec's "<status>: <text>" (or the invalid-JSON text);
 * `serverMessage` is the `error` (else `message`) field of a JSON error body, for the toasts that
 * show "the server's message".
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly serverMessage: string | undefined;

  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.serverMessage = readServerMessage(body);
  }
}

function readServerMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === 'string' && error) return error;
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}

/** The server's own message of a failed call, else the given fallback (toast descriptions). */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}

/** The message of any thrown value, for "Failed to ...: <message>" texts. */
export function errorMessage(error: unknown, fallback = 'Unknown error'): string {
  if (error instanceof ApiError) return error.serverMessage ?? error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

function isJson(res: Response): boolean {
  const type = res.headers.get('content-type') ?? '';
  return /application\/([\w.+-]*\+)?json/i.test(type);
}

async function readResponse(res: Response, okFallbackMessage: string): Promise<unknown> {
  if (!isJson(res)) {
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw new ApiError(`${res.status}: ${text || res.statusText}`, res.status, text);
    }
    return res;
  }

  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (res.ok) return { success: true, message: okFallbackMessage } satisfies SuccessFallback;
    throw new ApiError(INVALID_JSON, res.status);
  }
  if (!res.ok) throw new ApiError(`${res.status}: ${text || res.statusText}`, res.status, parsed);
  return parsed;
}

/** A change (or any explicit call): method, path, optional JSON body. */
export async function apiRequest<T = unknown>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers:
      body === undefined
        ? { Accept: 'application/json' }
        : { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await readResponse(res, OPERATION_SUCCESSFUL)) as T;
}

export interface FetcherOptions {
  /** 'returnNull': a 401 yields null (the current-user load); 'throw': a 401 is an error. */
  on401?: 'returnNull' | 'throw';
}

/** A data loader for SWR: the key is the path, the load is a GET on it. */
export function createFetcher({ on401 = 'throw' }: FetcherOptions = {}) {
  return async function load<T = unknown>(key: string | readonly [string, ...unknown[]]): Promise<T> {
    const path = typeof key === 'string' ? key : key[0];
    const res = await fetch(path, { method: 'GET', credentials: 'include', headers: { Accept: 'application/json' } });
    if (res.status === 401 && on401 === 'returnNull') return null as T;
    return (await readResponse(res, DATA_RETRIEVED)) as T;
  };
}

/** The default SWR fetcher: a 401 counts as an error. */
export const fetcher = createFetcher();

/** For loads that treat "signed out" as data: a 401 yields null. */
export const fetcherNullOn401 = createFetcher({ on401: 'returnNull' });
