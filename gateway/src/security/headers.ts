import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { GatewayConfig } from '../config';

/**
 * The origins the remotes are loaded from: each manifest URL of the deploy-time `/remotes.json` that names another
 * origin (a relative one is served by the gateway itself, covered by 'self'). The remote's chunks and its
 * remoteEntry come from the manifest's origin (`publicPath: 'auto'`).
 */
export function remoteOrigins(remotes: GatewayConfig['remotes']): string[] {
  const origins = new Set<string>();
  for (const manifest of Object.values(remotes)) {
    if (!/^https?:\/\//i.test(manifest)) continue;
    origins.add(new URL(manifest).origin);
  }
  return [...origins];
}

/** Whether the app is served over https (PUBLIC_URL): only then may browsers be told to insist on it. */
const servedOverHttps = (config: Pick<GatewayConfig, 'publicUrl'>) => config.publicUrl?.startsWith('https:') === true;

/**
 * helmet's options for every answer of the gateway (docs/security.md says why each source is there):
 * - scripts only from files of ours and of the remotes (no inline script, no eval: the built shell and remotes have
 *   none);
 * - styles also 'unsafe-inline': MUI's emotion writes its styles into <style> elements at run time, and the
 *   template preview frame (a srcdoc document, which inherits this policy) carries the email's own styles;
 * - images also from data: (the favicon, images embedded in templates) and any http(s) host (a template's images
 *   are wherever the email will load them from; the preview must show them);
 * - never framed (frame-ancestors 'none' and X-Frame-Options DENY for browsers without CSP 2);
 * - nosniff, a referrer that stays on this origin (the Origin header of our own POSTs stays set, which the CSRF
 *   check needs: under no-referrer Chromium sends `Origin: null`), HSTS and upgrade-insecure-requests only when
 *   PUBLIC_URL is https (on plain http they would send the browser to a port that does not answer).
 */
export function securityHeaderOptions(config: Pick<GatewayConfig, 'remotes' | 'publicUrl'>): HelmetOptions {
  const remotes = remoteOrigins(config.remotes);
  const https = servedOverHttps(config);
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remotes],
        scriptSrcAttr: ["'none'"],
        // The remotes' manifests are fetched; their chunks may load styles and fonts of their own.
        connectSrc: ["'self'", ...remotes],
        styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
        fontSrc: ["'self'", 'data:', ...remotes],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    xContentTypeOptions: true,
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Remote assets are loaded by a shell that may live on another origin: /remotes/ answers cross-origin itself.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/**
 * Sets the headers on every answer of the gateway: called by its request listener ahead of both the /api proxy,
 * which writes its answers outside Koa, and Koa (pages, remotes, /remotes.json, health). helmet sets them
 * synchronously; a handler may still replace one (the remotes' cross-origin resource policy).
 */
export function securityHeaders(config: Pick<GatewayConfig, 'remotes' | 'publicUrl'>) {
  const set = helmet(securityHeaderOptions(config));
  return (req: IncomingMessage, res: ServerResponse) => set(req, res, () => undefined);
}
