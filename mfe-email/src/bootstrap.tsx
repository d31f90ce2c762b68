/**
 * Standalone dev page of the email remote (`npm start -w mfe-email`): the same routes component
 * the shell loads, wrapped in its own router and providers. Never loaded by the shell.
 */
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders, StandaloneFrame } from '@act/ui-kit';
import EmailRoutes, { EMAIL_PAGES } from './routes';

const links = EMAIL_PAGES.filter((p) => !p.path.includes(':')).map((p) => ({ to: `/${p.path}`, label: p.title }));

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <StandaloneFrame title="Email remote" links={links}>
        <EmailRoutes />
      </StandaloneFrame>
    </AppProviders>
  </BrowserRouter>,
);
