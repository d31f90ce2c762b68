import Router from '@koa/router';
import type { OpenApiDocument } from '@act/contracts/src/openapi/merge';

export interface RegisteredRoute {
  method: string;
  /** In the API document's form: `/api/users/{id}`. */
  path: string;
}

/**
 * What the routers answer, as the API document names it. HEAD is left out (the router adds it to every GET), as are
 * middleware layers (no method) and anything outside /api (health, /internal, this document).
 */
export function registeredRoutes(routers: Router[]): RegisteredRoute[] {
  const seen = new Map<string, RegisteredRoute>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue; // a RegExp route has no document form
      const path = layer.path.replace(/(?<!\/)\/+$/, '').replace(/:(\w+)/g, '{$1}');
      if (!path.startsWith('/api/') && path !== '/api') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        seen.set(`${method} ${path}`, { method: method.toLowerCase(), path });
      }
    }
  }
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Routes the document does not name: each is an /api call integrators cannot learn about. */
export function undocumentedRoutes(routes: RegisteredRoute[], doc: Pick<OpenApiDocument, 'paths'>): RegisteredRoute[] {
  return routes.filter((r) => !doc.paths[r.path]?.[r.method]);
}

/**
 * The service's part of the API document (`GET /openapi.json`, which the gateway merges into /api/openapi.json) and
 * the routes it really registered (`GET /internal/routes`, for the contract test). Both sit behind the gateway's
 * signed identity like every other service route; neither is under /api, so the gateway never forwards them.
 */
export function openApiRouter(part: OpenApiDocument, routers: Router[]): Router {
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = part;
  });
  router.get('/internal/routes', (ctx) => {
    const routes = registeredRoutes(routers);
    ctx.body = { routes, undocumented: undocumentedRoutes(routes, part) };
  });
  return router;
}
