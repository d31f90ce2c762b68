/**
 * Test helpers for jsdom component tests (not part of the public surface, never bundled):
 * a fake `fetch` answering from a route list, and a render wrapper with the app's providers
 * (MemoryRouter, theme, SWR with a fresh cache, toasts, auth), as conventions.md describes.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ThemeProvider } from '@mui/material';
import { theme } from '../theme';
import { ApiSWRConfig } from '../ApiSWRConfig';
import { ToastProvider } from '../Toast';
import { AuthProvider } from '../Auth';

export interface FakeReply {
  status?: number;
  statusText?: string;
  /** Sent as JSON (content-type application/json) unless `text` is given. */
  json?: unknown;
  /** Raw body text. */
  text?: string;
  contentType?: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Handler = FakeReply | ((call: RecordedCall) => FakeReply | Promise<FakeReply>);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** A Response-shaped object: what request.ts reads (ok, status, statusText, headers.get, text). */
export function fakeResponse(reply: FakeReply): Response {
  const status = reply.status ?? 200;
  const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  const contentType =
    reply.contentType ?? (reply.text === undefined ? 'application/json; charset=utf-8' : 'text/plain');
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: reply.statusText ?? STATUS_TEXT[status] ?? '',
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : null) },
    text: async () => body,
    json: async () => JSON.parse(body),
  } as unknown as Response;
}

/**
 * Replaces global fetch. Keys are 'METHOD /path' (exact) and answer in order of the list when a
 * key holds an array; 'METHOD /path?' answers that path with any query string (a handler function reads
 * it from `call.path`) when no exact key matches. Unmatched calls answer 404 so a test sees what it forgot.
 */
export function mockApi(routes: Record<string, Handler | Handler[]>) {
  const calls: RecordedCall[] = [];
  const queues = new Map(Object.entries(routes).map(([key, h]) => [key, Array.isArray(h) ? [...h] : [h]]));
  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = String(input);
    const call: RecordedCall = {
      method,
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
    };
    calls.push(call);
    const queue = queues.get(`${method} ${path}`) ?? queues.get(`${method} ${path.split('?')[0]}?`);
    if (!queue || queue.length === 0)
      return fakeResponse({ status: 404, json: { error: `no mock for ${method} ${path}` } });
    const handler = queue.length > 1 ? queue.shift()! : queue[0];
    return fakeResponse(typeof handler === 'function' ? await handler(call) : handler);
  };
  globalThis.fetch = fetchImpl as typeof fetch;
  return {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

export const ADMIN = {
  id: 1,
  username: 'admin',
  email: 'admin@example.com',
  full_name: 'Ada Admin',
  role: 'admin' as const,
  created_by: null,
  created_at: '2026-01-02T10:00:00.000Z',
  updated_at: '2026-01-03T10:00:00.000Z',
};

export const PLAIN_USER = {
  ...ADMIN,
  id: 2,
  username: 'bob',
  full_name: 'Bob Builder',
  email: 'bob@example.com',
  role: 'user' as const,
  created_by: 1,
};

/** Render inside the app's providers at `route`. */
export function renderWithProviders(ui: ReactElement, { route = '/' }: { route?: string } = {}) {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <ThemeProvider theme={theme}>
        <ApiSWRConfig provider={() => new Map()}>
          <ToastProvider>
            <AuthProvider>{ui}</AuthProvider>
          </ToastProvider>
        </ApiSWRConfig>
      </ThemeProvider>
    </MemoryRouter>,
  );
}
