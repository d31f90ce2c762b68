import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { ADMIN, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';

// The MF runtime is replaced: the email remote answers with a tiny route table, the SMS remote is "down".
jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  loadRemote: jest.fn(async (id: string) => {
    if (id === 'mfe_sms/routes') throw new Error('remote entry failed to load');
    const { Routes: R, Route: Rt } = jest.requireActual('react-router');
    return {
      default: ({ notFound }: { notFound?: React.ReactNode }) => (
        <R>
          <Rt path="documentation" element={<h1>Docs from the email remote</h1>} />
          <Rt path="*" element={notFound} />
        </R>
      ),
    };
  }),
}));

import { App } from './App';

const remotesJson = {
  'GET /remotes.json': {
    json: { mfe_email: '/remotes/mfe-email/mf-manifest.json', mfe_sms: '/remotes/mfe-sms/mf-manifest.json' },
  },
};

beforeAll(() => {
  // jsdom has no matchMedia: the layout then takes the narrow (slide-over) form.
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

describe('shell routing', () => {
  it('sends a signed-out visitor to /auth', async () => {
    mockApi({ ...remotesJson, 'GET /api/user': { json: { authenticated: false } } });
    renderWithProviders(<App />, { route: '/contacts' });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it("shows '404 Page Not Found' for an unknown path", async () => {
    mockApi({ ...remotesJson, 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(<App />, { route: '/no-such-page' });
    expect(await screen.findByText('404 Page Not Found')).toBeTruthy();
  });

  it("renders an email path through the email remote's routes", async () => {
    mockApi({ ...remotesJson, 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(<App />, { route: '/documentation' });
    expect(await screen.findByRole('heading', { name: 'Docs from the email remote' })).toBeTruthy();
  });

  it('a dead remote shows an error card with Retry on its routes only', async () => {
    mockApi({ ...remotesJson, 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(<App />, { route: '/sms-campaigns' });
    expect(await screen.findByText('SMS module unavailable')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    // the menu button of the (narrow) layout is still there: the shell keeps working
    expect(screen.getByRole('button', { name: 'Open navigation menu' })).toBeTruthy();
  });

  it('the shell pages work without any remote', async () => {
    mockApi({ ...remotesJson, 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(
      <Routes>
        <Route path="*" element={<App />} />
      </Routes>,
      { route: '/profile' },
    );
    expect(await screen.findByRole('tab', { name: 'Change Password' })).toBeTruthy();
  });
});
