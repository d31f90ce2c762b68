import { screen } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';

// The signed-in layout is a lazy chunk. Here it never arrives (it suspends for good, like a download
// that hangs): a signed-out visitor must still reach the sign-in page, which needs nothing from it.
jest.mock('./layout/AppLayout', () => ({
  __esModule: true,
  default: function NeverLoadedLayout() {
    throw new Promise(() => {});
  },
}));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

import { App } from './App';

it('sends a signed-out visitor to /auth without waiting for the signed-in layout', async () => {
  mockApi({ 'GET /remotes.json': { json: {} }, 'GET /api/user': { json: { authenticated: false } } });
  renderWithProviders(<App />, { route: '/contacts' });
  expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
});
