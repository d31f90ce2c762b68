import { apiRequest, ApiError, createFetcher, fetcher, fetcherNullOn401, serverMessage } from './request';
import { fakeResponse, mockApi } from './testing';

// Spec email-and-shell §7 "Shared request behaviour" and §8 "General", one rule per test.
describe('apiRequest', () => {
  it('sends cookies and a JSON body, and returns the parsed JSON', async () => {
    const api = mockApi({ 'POST /api/things': { status: 201, json: { id: 7 } } });
    await expect(apiRequest('POST', '/api/things', { name: 'x' })).resolves.toEqual({ id: 7 });
    expect(api.calls[0]).toMatchObject({ method: 'POST', credentials: 'include', body: { name: 'x' } });
  });

  it('sends no body when none is given, still with cookies', async () => {
    const api = mockApi({ 'POST /api/logout': { json: { message: 'bye' } } });
    await apiRequest('POST', '/api/logout');
    expect(api.calls[0]).toMatchObject({ body: undefined, credentials: 'include' });
  });

  it("gives success true and 'Operation successful' for an ok response whose JSON cannot be parsed", async () => {
    mockApi({ 'DELETE /api/x/1': { status: 200, text: '', contentType: 'application/json' } });
    await expect(apiRequest('DELETE', '/api/x/1')).resolves.toEqual({ success: true, message: 'Operation successful' });
  });

  it("fails with 'Invalid JSON response from server' for a not-ok response whose JSON cannot be parsed", async () => {
    mockApi({ 'POST /api/x': { status: 500, text: '{oops', contentType: 'application/json' } });
    await expect(apiRequest('POST', '/api/x', {})).rejects.toThrow(new Error('Invalid JSON response from server'));
  });

  it("fails with '<status>: <body text>' for a not-ok JSON response, keeping the server's message", async () => {
    mockApi({ 'POST /api/login': { status: 401, json: { error: 'Invalid username or password' } } });
    const error = await apiRequest('POST', '/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: {"error":"Invalid username or password"}');
    expect((error as ApiError).status).toBe(401);
    expect(serverMessage(error, 'fallback')).toBe('Invalid username or password');
  });

  it('uses the status text when a not-ok body is empty', async () => {
    mockApi({ 'GET /api/x': { status: 503, text: '' } });
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('503: Service Unavailable');
  });

  it('fails with the text body of a not-ok non-JSON response', async () => {
    mockApi({ 'GET /api/x': { status: 502, text: 'Bad gateway upstream' } });
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('502: Bad gateway upstream');
  });

  it('returns a non-JSON ok response as is', async () => {
    mockApi({ 'GET /export.csv': { status: 200, text: 'a,b', contentType: 'text/csv' } });
    const res = await apiRequest<Response>('GET', '/export.csv');
    expect(await res.text()).toBe('a,b');
  });

  it('serverMessage falls back when the error carries no server message', () => {
    expect(serverMessage(new Error('boom'), 'Failed to update profile')).toBe('Failed to update profile');
  });
});

describe('data loads (SWR fetchers)', () => {
  it('GETs the key with cookies and returns the parsed JSON', async () => {
    const api = mockApi({ 'GET /api/contacts': { json: [{ id: 1 }] } });
    await expect(fetcher('/api/contacts')).resolves.toEqual([{ id: 1 }]);
    expect(api.calls[0]).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('treats a 401 as an error by default', async () => {
    mockApi({ 'GET /api/users': { status: 401, json: { error: 'Authentication required' } } });
    await expect(fetcher('/api/users')).rejects.toThrow('401: {"error":"Authentication required"}');
  });

  it('yields null on a 401 when configured to', async () => {
    mockApi({ 'GET /api/user': { status: 401, json: { error: 'Authentication required' } } });
    await expect(fetcherNullOn401('/api/user')).resolves.toBeNull();
    await expect(createFetcher({ on401: 'returnNull' })('/api/user')).resolves.toBeNull();
  });

  it("gives success true and 'Data retrieved successfully' for an unparsable ok data response", async () => {
    mockApi({ 'GET /api/settings/reminder-delay': { status: 200, text: 'not json', contentType: 'application/json' } });
    await expect(fetcher('/api/settings/reminder-delay')).resolves.toEqual({
      success: true,
      message: 'Data retrieved successfully',
    });
  });

  it('fails other statuses with the general error format', async () => {
    mockApi({ 'GET /api/contacts': { status: 500, json: { error: 'Internal server error' } } });
    await expect(fetcher('/api/contacts')).rejects.toThrow('500: {"error":"Internal server error"}');
  });

  it('accepts an array key whose first item is the path', async () => {
    mockApi({ 'GET /api/a': { json: { ok: 1 } } });
    await expect(fetcher(['/api/a', 'extra'] as const)).resolves.toEqual({ ok: 1 });
  });

  it('fakeResponse looks like a Response to the client', () => {
    expect(fakeResponse({ status: 204 }).ok).toBe(true);
  });
});
