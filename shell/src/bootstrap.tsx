import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from '@act/ui-kit';
import { App } from './App';
import { registerRemotesFromConfig } from './remotes/registry';

// Remotes are found at run time: start fetching the deploy-time config right away, but render at
// once; remote routes wait for it, the shell's own pages (sign-in, profile, users) never do.
void registerRemotesFromConfig();

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <AppProviders>
      <App />
    </AppProviders>
  </BrowserRouter>,
);
