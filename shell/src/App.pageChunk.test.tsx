import { screen } from '@testing-library/react';
import { ADMIN, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';

// The profile page's chunk fails to download (a dropped connection, or a deploy that replaced the file).
jest.mock('./profile/ProfilePage', () => {
  throw new Error('Loading chunk 812 failed.');
});
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

import { App } from './App';

beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
});

it('shows a reload card instead of a blank page when a page chunk cannot be loaded', async () => {
  mockApi({ 'GET /remotes.json': { json: {} }, 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
  renderWithProviders(<App />, { route: '/profile' });
  expect(await screen.findByText('This page could not be loaded')).toBeTruthy();
  expect(screen.getByRole('alert')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
});
