import type { ReactNode } from 'react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import type { SWRConfiguration } from 'swr';
import { theme } from '../theme';
import { ApiSWRConfig } from '../ApiSWRConfig';
import { ToastProvider } from '../Toast';
import { AuthProvider } from '../Auth';

/**
 * Theme, data-loading defaults, the single toast provider and the auth context, in the order they
 * depend on each other. Rendered once by the shell, and by each remote's standalone dev page.
 */
export function AppProviders({
  children,
  swrProvider,
}: {
  children: ReactNode;
  swrProvider?: SWRConfiguration['provider'];
}) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ApiSWRConfig provider={swrProvider}>
        <ToastProvider>
          <AuthProvider>{children}</AuthProvider>
        </ToastProvider>
      </ApiSWRConfig>
    </ThemeProvider>
  );
}
