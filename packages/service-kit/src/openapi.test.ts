import Router from '@koa/router';
import { registeredRoutes, undocumentedRoutes } from './openapi';

describe('the routes a service registered, as the API document names them', () => {
  const users = new Router({ prefix: '/api/users' });
  users.use(async (_ctx, next) => next());
  users.get('/', () => undefined);
  users.patch('/:id', () => undefined);
  users.post('/:id/reset-password', () => undefined);
  const other = new Router();
  other.post('/api/webhook/i/:key', () => undefined);
  other.get('/internal/session', () => undefined);
  other.get('/openapi.json', () => undefined);

  it('lists /api routes with parameters in braces, without HEAD, middleware or non-/api paths', () => {
    expect(registeredRoutes([users, other])).toEqual([
      { method: 'get', path: '/api/users' },
      { method: 'patch', path: '/api/users/{id}' },
      { method: 'post', path: '/api/users/{id}/reset-password' },
      { method: 'post', path: '/api/webhook/i/{key}' },
    ]);
  });

  it('names the routes a document lacks', () => {
    const doc = { paths: { '/api/users': { get: {} }, '/api/users/{id}': { patch: {} }, '/api/webhook/i/{key}': { post: {} } } };
    expect(undocumentedRoutes(registeredRoutes([users, other]), doc)).toEqual([{ method: 'post', path: '/api/users/{id}/reset-password' }]);
  });
});
