import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';
import type { GatewayConfig } from './config';

/** Content-hashed file names (`main.3f2a9c1b.js`) never change content, so browsers may keep them for a year. */
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
/** Entry points that name the hashed files: always revalidated, so a deploy shows up at the next load. */
const ENTRY_FILES = new Set(['index.html', 'remoteEntry.js', 'mf-manifest.json']);

export function cacheControlFor(file: string): string {
  const name = basename(file);
  if (!ENTRY_FILES.has(name) && HASHED.test(name)) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/**
 * The shell asks who is signed in (`GET /api/user`, with credentials) before it shows any page, and only once its
 * bundle has loaded and run (~1 s after the HTML on this machine): announced with the page, the browser fetches it
 * while the bundle loads, and the shell's own request is answered from that preload.
 */
export const SHELL_PRELOAD = '</api/user>; rel=preload; as=fetch; crossorigin=use-credentials';

function setHeaders(res: import('node:http').ServerResponse, file: string): void {
  res.setHeader('Cache-Control', cacheControlFor(file));
  if (basename(file) === 'index.html') res.setHeader('Link', SHELL_PRELOAD);
}

/** Serves `rel` under `root`; false when there is no such file. Traversal and bad encodings answer 4xx here. */
async function serveFile(ctx: Context, root: string, rel: string): Promise<boolean> {
  try {
    const served = await send(ctx, rel, { root, index: 'index.html', gzip: false, brotli: false, setHeaders });
    if (!served) return false;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404) return false;
    if (status === 400 || status === 403) {
      ctx.status = status;
      ctx.body = { error: status === 400 ? 'Bad request' : 'Forbidden' };
      return true;
    }
    throw err;
  }
  // Conditional GET on Last-Modified (set by koa-send): answer 304 and close the file stream opened for the body.
  if (ctx.fresh) {
    const stream = ctx.body as { destroy?: () => void } | null;
    ctx.status = 304;
    ctx.body = null;
    stream?.destroy?.();
  }
  return true;
}

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.body = { error: 'Not found' };
}

/**
 * The built shell at `/` (SPA fallback to index.html), each remote's assets under `/remotes/<name>/` with CORS
 * (the shell loads them from another origin when remotes are deployed apart), and `/remotes.json`.
 * A folder that is not built answers 503/404, never a crash.
 */
export function staticFiles(config: GatewayConfig) {
  const remotesJson = JSON.stringify(config.remotes);
  const remoteRoots: Record<string, string> = config.remoteDirs;

  return async function serveStatic(ctx: Context, next: Next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      if (ctx.path.startsWith('/remotes/') && ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Origin', '*');
        ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        ctx.status = 204;
        return;
      }
      return next();
    }

    if (ctx.path === '/remotes.json') {
      // Deploy-time configuration: read at every shell start, so never cached.
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = remotesJson;
      return;
    }

    if (ctx.path.startsWith('/remotes/')) {
      ctx.set('Access-Control-Allow-Origin', '*');
      // A shell on another origin loads these with <script>: helmet's same-origin resource policy would block it.
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      const rest = ctx.path.slice('/remotes/'.length);
      const slash = rest.indexOf('/');
      const name = slash === -1 ? rest : rest.slice(0, slash);
      // Own keys only: `constructor`, `__proto__` or `toString` must not find Object.prototype's members.
      const root = Object.hasOwn(remoteRoots, name) ? remoteRoots[name] : undefined;
      const rel = slash === -1 ? '' : rest.slice(slash + 1);
      if (!root || !rel) return notFound(ctx);
      if (await serveFile(ctx, root, rel)) return;
      if (!existsSync(root)) {
        ctx.status = 503;
        ctx.body = { error: `${name} unavailable` };
        return;
      }
      return notFound(ctx);
    }

    if (await serveFile(ctx, config.shellDir, ctx.path)) return;
    // Client-side routes (/contacts, /email-templates/12) get the app; a missing asset (/x.js) stays a 404.
    const last = ctx.path.slice(ctx.path.lastIndexOf('/') + 1);
    const isNavigation = !last.includes('.') || (ctx.get('accept') || '').includes('text/html');
    if (!isNavigation) return notFound(ctx);
    if (await serveFile(ctx, config.shellDir, '/index.html')) return;
    ctx.status = 503;
    ctx.type = 'text/plain';
    ctx.body = 'The shell is not built yet: run `npm run build` (or set SHELL_DIR).';
  };
}
