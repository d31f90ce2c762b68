import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ADMIN, mockApi, renderWithProviders } from '../testing';
import { useAuth } from '.';

function Probe() {
  const { user, isLoading, login, logout } = useAuth();
  return (
    <div>
      <span data-testid="state">{isLoading ? 'loading' : user ? `user:${user.username}` : 'signed-out'}</span>
      <button onClick={() => login('admin', 'pw').catch(() => {})}>login</button>
      <button onClick={() => void logout()}>logout</button>
    </div>
  );
}

const state = () => screen.getByTestId('state').textContent;

describe('auth context (spec §4 user request rules, §8 toasts)', () => {
  it('is signed in when /api/user answers a user', async () => {
    mockApi({ 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderWithProviders(<Probe />);
    expect(state()).toBe('loading');
    await waitFor(() => expect(state()).toBe('user:admin'));
  });

  it('yields null on a 401', async () => {
    mockApi({ 'GET /api/user': { status: 401, json: { error: 'Authentication required' } } });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('yields null when authenticated is false', async () => {
    mockApi({ 'GET /api/user': { json: { authenticated: false } } });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
  });

  it("yields null on any other failure, with the 'Failed to get user data' toast", async () => {
    mockApi({ 'GET /api/user': { status: 500, json: { error: 'Internal server error' } } });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to get user data');
  });

  it("login success: 'Login successful' with 'Welcome,' and the name", async () => {
    const api = mockApi({ 'GET /api/user': { json: { authenticated: false } }, 'POST /api/login': { json: ADMIN } });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
    fireEvent.click(screen.getByText('login'));
    await waitFor(() => expect(state()).toBe('user:admin'));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Login successful');
    expect(toast.textContent).toContain('Welcome, Ada Admin');
    expect(api.callsTo('POST', '/api/login')[0].body).toEqual({ username: 'admin', password: 'pw' });
  });

  it("login failure: 'Login failed' with the server's message", async () => {
    mockApi({
      'GET /api/user': { json: { authenticated: false } },
      'POST /api/login': { status: 401, json: { error: 'Invalid username or password' } },
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
    fireEvent.click(screen.getByText('login'));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Login failed');
    expect(toast.textContent).toContain('Invalid username or password');
  });

  it("login failure without a server message: 'Login failed. Please check your credentials.'", async () => {
    mockApi({ 'GET /api/user': { json: { authenticated: false } }, 'POST /api/login': { status: 500, text: '' } });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('signed-out'));
    fireEvent.click(screen.getByText('login'));
    expect((await screen.findByRole('alert')).textContent).toContain('Login failed. Please check your credentials.');
  });

  it("logout clears the user: 'Logout successful' / 'You have been logged out.'", async () => {
    mockApi({
      'GET /api/user': { json: { ...ADMIN, authenticated: true } },
      'POST /api/logout': { json: { message: 'ok' } },
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('user:admin'));
    fireEvent.click(screen.getByText('logout'));
    await waitFor(() => expect(state()).toBe('signed-out'));
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Logout successful');
    expect(toast.textContent).toContain('You have been logged out.');
  });

  it("logout failure: 'Logout failed'", async () => {
    mockApi({
      'GET /api/user': { json: { ...ADMIN, authenticated: true } },
      'POST /api/logout': { status: 500, json: { error: 'x' } },
    });
    renderWithProviders(<Probe />);
    await waitFor(() => expect(state()).toBe('user:admin'));
    fireEvent.click(screen.getByText('logout'));
    expect((await screen.findByRole('alert')).textContent).toContain('Logout failed');
    expect(state()).toBe('user:admin');
  });
});
