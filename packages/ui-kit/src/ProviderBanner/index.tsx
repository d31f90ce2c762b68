import { Alert } from '@mui/material';
import useSWR from 'swr';
import type { ProviderStatusResponse } from '@act/contracts/src/provider-status';

/** Where each side answers whether its provider is configured and what waits for it. */
export const PROVIDER_STATUS = { resend: '/api/resend/status', twilio: '/api/sms/provider-status' } as const;

/** The status of one side's provider (shared SWR key: every page and row of that side reads the same answer). */
export function useProviderStatus(provider: keyof typeof PROVIDER_STATUS): ProviderStatusResponse | undefined {
  return useSWR<ProviderStatusResponse>(PROVIDER_STATUS[provider], { refreshInterval: 30_000 }).data;
}

/**
 * At the top of a page whose work needs a provider: says when it is not configured, how many steps wait for it and
 * what to do (the server's sentence). Nothing while it is configured or the answer has not come yet.
 */
export function ProviderBanner({ provider }: { provider: keyof typeof PROVIDER_STATUS }) {
  const status = useProviderStatus(provider);
  if (!status?.message) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid={`provider-banner-${provider}`} role="status">
      {status.message}
    </Alert>
  );
}
