/**
 * Standalone dev page of the SMS remote (`npm start -w mfe-sms`): the same routes component the
 * shell loads, wrapped in its own router and providers. Never loaded by the shell.
 */
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders, StandaloneFrame } from '@act/ui-kit';
import SmsRoutes, { SMS_PAGES } from './routes';

const links = SMS_PAGES.filter((p) => !p.path.includes(':')).map((p) => ({ to: `/${p.path}`, label: p.title }));

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <StandaloneFrame title="SMS remote" links={links}>
        <SmsRoutes />
      </StandaloneFrame>
    </AppProviders>
  </BrowserRouter>,
);
