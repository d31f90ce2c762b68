import { registerRemotes } from '@module-federation/enhanced/runtime';

/** `/remotes.json`: `{ "mfe_email": "<manifest url>", "mfe_sms": "<manifest url>" }` (conventions.md). */
export type RemotesConfig = Record<string, string>;

let registration: Promise<RemotesConfig> | null = null;

/**
 * Reads the deploy-time remote config and registers each remote with the MF runtime. Runs once;
 * every remote route awaits the same promise. A failure here only breaks remote routes.
 */
export function registerRemotesFromConfig(url = '/remotes.json'): Promise<RemotesConfig> {
  registration ??= (async () => {
    const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
    if (!res.ok) throw new Error(`Could not read ${url}: ${res.status} ${res.statusText}`);
    const config = (await res.json()) as RemotesConfig;
    // Manifest URLs may be relative to the site; the runtime resolves chunk URLs from the
    // manifest's own location (publicPath 'auto'), so hand it an absolute URL.
    registerRemotes(
      Object.entries(config).map(([name, entry]) => ({ name, entry: new URL(entry, window.location.href).href })),
    );
    return config;
  })();
  registration.catch(() => {
    // Allow a later retry (e.g. the Retry button of a remote's error card) to fetch again.
    registration = null;
  });
  return registration;
}

/**
 * Before a retry: register the remote again (force) so the runtime forgets a failed entry load
 * instead of answering from its cache; re-reads /remotes.json if that was what failed.
 */
export async function reRegisterRemote(name: string): Promise<void> {
  const config = await registerRemotesFromConfig();
  const entry = config[name];
  if (entry) registerRemotes([{ name, entry: new URL(entry, window.location.href).href }], { force: true });
}
