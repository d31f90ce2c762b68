import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { ADMIN, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { theme } from '@act/ui-kit';
import { AuthPage } from './AuthPage';

/** A colour as getComputedStyle reports it (rgb(...)). */
function cssColor(value: string): string {
  const probe = document.createElement('i');
  probe.style.color = value;
  return getComputedStyle(probe).color;
}

function renderAuth() {
  return renderWithProviders(
    <Routes>
      <Route path="/auth" element={<AuthPage />} />
      <Route path="/" element={<h1>Home page</h1>} />
    </Routes>,
    { route: '/auth' },
  );
}

describe('/auth (spec §2, §5)', () => {
  it('prefills admin, leaves the password empty, and shows the three features', async () => {
    mockApi({ 'GET /api/user': { json: { authenticated: false } } });
    renderAuth();
    expect(((await screen.findByLabelText(/Username/)) as HTMLInputElement).value).toBe('admin');
    expect((screen.getByLabelText(/Password/) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByText('Real-time Monitoring')).toBeTruthy();
    expect(screen.getByText('Configurable Timing')).toBeTruthy();
    expect(screen.getByText('Customer Recovery')).toBeTruthy();
    // MUI 9 takes color="textSecondary" (it ignores "text.secondary"): the hint is in the secondary colour.
    expect(getComputedStyle(screen.getByText('Use your staff account to continue.')).color).toBe(
      cssColor(theme.palette.text.secondary),
    );
  });

  it('requires username and password, and sends nothing without them', async () => {
    const api = mockApi({ 'GET /api/user': { json: { authenticated: false } } });
    renderAuth();
    fireEvent.change(await screen.findByLabelText(/Username/), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(api.callsTo('POST', '/api/login')).toHaveLength(0);
  });

  it("reads 'Signing in...' while pending, then sends the signed-in user to /", async () => {
    let release!: () => void;
    const pending = new Promise<void>((resolve) => (release = resolve));
    mockApi({
      'GET /api/user': { json: { authenticated: false } },
      'POST /api/login': async () => {
        await pending;
        return { json: ADMIN };
      },
    });
    renderAuth();
    fireEvent.change(await screen.findByLabelText(/Password/), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeTruthy();
    release();
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
  });

  it('a signed-in user is sent to /', async () => {
    mockApi({ 'GET /api/user': { json: { ...ADMIN, authenticated: true } } });
    renderAuth();
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeTruthy();
  });

  it("a wrong password shows 'Login failed'", async () => {
    mockApi({
      'GET /api/user': { json: { authenticated: false } },
      'POST /api/login': { status: 401, json: { error: 'Invalid username or password' } },
    });
    renderAuth();
    fireEvent.change(await screen.findByLabelText(/Password/), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getAllByText('Login failed').length).toBeGreaterThan(0));
    expect(screen.getByText('Invalid username or password')).toBeTruthy();
  });
});
