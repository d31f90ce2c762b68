import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, PLAIN_USER, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { Sidebar } from './Sidebar';

const USER_ENTRIES = [
  'Dashboard',
  'Contacts',
  'Email Logs',
  'Webhook Events',
  'Webhook Integrations',
  'Documentation',
  'Resend Config',
  'Email Campaigns',
  'SMS Webhooks',
  'SMS Campaigns',
  'SMS Contacts',
  'SMS Statistics',
  'SMS Logs',
  'SMS Webhook Events',
  'Twilio Settings',
  'Legacy Templates',
  'Profile',
];

const entries = () =>
  within(screen.getByRole('navigation', { name: 'Main navigation' }))
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href')]);

describe('sidebar (spec §2 Shared shell)', () => {
  it('admin: every entry in order, admin entries before Settings, which is last', async () => {
    mockApi({ 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(<Sidebar />);
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(entries().map(([label]) => label)).toEqual([
      ...USER_ENTRIES,
      'User Management',
      'Audit Log',
      'Privacy Requests',
      'Unsubscribe Management',
      'Settings',
    ]);
    expect(entries()).toContainEqual(['SMS Statistics', '/sms-stats']);
    expect(entries()).toContainEqual(['Legacy Templates', '/resend-templates']);
    expect(entries()).toContainEqual(['User Management', '/users']);
    expect(screen.getByText('Abandoned Cart Tracker')).toBeTruthy();
    expect(screen.getByText('Administrator')).toBeTruthy();
    expect(screen.getByText('admin')).toBeTruthy();
    expect(screen.getByText('Status: Online')).toBeTruthy();
  });

  it('user: no admin entries, role badge User', async () => {
    mockApi({ 'GET /api/user': { json: { ...PLAIN_USER, authenticated: true } } });
    renderWithProviders(<Sidebar />);
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(entries().map(([label]) => label)).toEqual([...USER_ENTRIES, 'Settings']);
    expect(screen.getByText('User')).toBeTruthy();
    expect(screen.getByText('bob')).toBeTruthy();
  });

  it("signed out: 'Please log in to access the dashboard' and Guest", async () => {
    mockApi({ 'GET /api/user': { json: { authenticated: false } } });
    renderWithProviders(<Sidebar />);
    expect(await screen.findByText('Please log in to access the dashboard')).toBeTruthy();
    expect(screen.getByText('Guest')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });

  it('the logout button signs out', async () => {
    const api = mockApi({
      'GET /api/user': { json: { ...ADMIN, authenticated: true } },
      'POST /api/logout': { json: { message: 'ok' } },
    });
    renderWithProviders(<Sidebar />);
    await screen.findByRole('navigation', { name: 'Main navigation' });
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByText('Guest')).toBeTruthy());
    expect(api.callsTo('POST', '/api/logout')).toHaveLength(1);
  });
});
