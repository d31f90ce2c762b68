import type { ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { fetcher } from '../request';

/**
 * Section 9 "Data loading": no automatic retry, no refetch on window focus (or reconnect), no
 * polling, data never becomes stale. Lists are refetched only by an explicit `mutate(key)` after
 * a successful change (section 7), or when first mounted without cached data.
 */
export const apiSWRDefaults: SWRConfiguration = {
  fetcher,
  shouldRetryOnError: false,
  errorRetryCount: 0,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  refreshInterval: 0,
  revalidateIfStale: false,
};

export interface ApiSWRConfigProps {
  children: ReactNode;
  /** Tests pass `() => new Map()` so each render starts with an empty cache. */
  provider?: SWRConfiguration['provider'];
  /** Extra options layered over the defaults. */
  value?: SWRConfiguration;
}

export function ApiSWRConfig({ children, provider, value }: ApiSWRConfigProps) {
  return <SWRConfig value={{ ...apiSWRDefaults, ...(provider ? { provider } : {}), ...value }}>{children}</SWRConfig>;
}
