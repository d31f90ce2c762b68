import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import UnsubscribePage from './UnsubscribePage';
import UnsubscribeManagementPage from './UnsubscribeManagementPage';

const signedOut = { 'GET /api/user': { json: { authenticated: false } } };
const statusOf = (email: string) => `GET /api/unsubscribe?email=${encodeURIComponent(email)}`;

describe('/unsubscribe (public page)', () => {
  it('without ?email= tells the visitor the link is incomplete, and calls nothing', async () => {
    const api = mockApi({ ...signedOut });
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe' });
    expect(await screen.findByText('No email address provided. Please check the link and try again.')).toBeTruthy();
    expect(api.calls.filter((c) => c.path.startsWith('/api/unsubscribe'))).toEqual([]);
  });

  it("'already-unsubscribed' shows the already state", async () => {
    mockApi({ ...signedOut, [statusOf('a@b.test')]: { json: { status: 'already-unsubscribed', message: 'x' } } });
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?email=a%40b.test' });
    expect(await screen.findByRole('heading', { name: 'Already unsubscribed' })).toBeTruthy();
  });

  it('any other answer shows the form with the read-only address; confirming unsubscribes with the reason', async () => {
    const api = mockApi({
      ...signedOut,
      [statusOf('a+x@b.test')]: { json: { status: 'subscribed', message: 'x' } },
      'POST /api/unsubscribe': { json: { status: 'unsubscribed', message: 'done' } },
    });
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?email=a%2Bx%40b.test' });
    const email = (await screen.findByLabelText('Email address')) as HTMLInputElement;
    expect(email.value).toBe('a+x@b.test');
    expect(email.readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText('Reason (optional)'), { target: { value: 'Too many emails' } });
    fireEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: 'You have been unsubscribed' })).toBeTruthy();
    expect(api.callsTo('POST', '/api/unsubscribe')[0].body).toEqual({ email: 'a+x@b.test', reason: 'Too many emails' });
  });

  it('a link whose address is not an email says so, without a Try again that cannot work', async () => {
    mockApi({ ...signedOut, [statusOf('not-an-email')]: { status: 400, json: { error: 'Invalid email address' } } });
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?email=not-an-email' });
    expect(
      await screen.findByText('This link does not hold a valid email address. Please check the link and try again.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('check and unsubscribe failures have their own messages', async () => {
    mockApi({ ...signedOut, [statusOf('a@b.test')]: { status: 500, json: { error: 'boom' } } });
    const first = renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?email=a%40b.test' });
    expect(await screen.findByText('Failed to check subscription status. Please try again later.')).toBeTruthy();
    first.unmount();

    mockApi({
      ...signedOut,
      [statusOf('a@b.test')]: { json: { status: 'subscribed' } },
      'POST /api/unsubscribe': { status: 429, json: { error: 'Too many requests' } },
    });
    renderWithProviders(<UnsubscribePage />, { route: '/unsubscribe?email=a%40b.test' });
    fireEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByText('Failed to unsubscribe. Please try again later.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Unsubscribe' })).toBeTruthy();
  });
});

describe('/unsubscribe-management', () => {
  const admin = { 'GET /api/user': { json: { ...ADMIN, authenticated: true } } };
  const entry = {
    id: 7,
    email: 'gone@example.com',
    unsubscribed_at: '2026-02-01T12:00:00.000Z',
    reason: 'Asked by phone',
  };

  it('lists the entries', async () => {
    mockApi({ ...admin, 'GET /api/direct-unsubscribes': { json: [entry] } });
    renderWithProviders(<UnsubscribeManagementPage />);
    const row = (await screen.findByText('gone@example.com')).closest('tr')!;
    expect(within(row).getByText('7')).toBeTruthy();
    expect(within(row).getByText('Asked by phone')).toBeTruthy();
  });

  it('an empty add asks for an address; an add without reason sends the default one', async () => {
    const api = mockApi({
      ...admin,
      'GET /api/direct-unsubscribes': { json: [] },
      'POST /api/email-unsubscribes/quick-add': { json: { ...entry, id: 8 } },
    });
    renderWithProviders(<UnsubscribeManagementPage />);
    const add = await screen.findByRole('button', { name: 'Unsubscribe email' });
    fireEvent.click(add);
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Email required')).toBeTruthy();
    expect(within(toast).getByText('Please enter an email address')).toBeTruthy();
    expect(api.callsTo('POST', '/api/email-unsubscribes/quick-add')).toHaveLength(0);

    const input = screen.getByLabelText('Email address') as HTMLInputElement;
    expect(input.type).toBe('email');
    fireEvent.change(input, { target: { value: 'new@example.com' } });
    fireEvent.click(add);
    expect(await screen.findByText('Email unsubscribed')).toBeTruthy();
    expect(api.callsTo('POST', '/api/email-unsubscribes/quick-add')[0].body).toEqual({
      email: 'new@example.com',
      reason: 'Manually added by admin',
    });
  });

  it("a refused change reads 'Server responded with {status}'", async () => {
    mockApi({
      ...admin,
      'GET /api/direct-unsubscribes': { json: [entry] },
      'POST /api/email-unsubscribes/remove': { status: 403, json: { error: 'Admin access required' } },
    });
    renderWithProviders(<UnsubscribeManagementPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove gone@example.com' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Server responded with 403')).toBeTruthy();
  });

  it('a load failure shows the spec text; unreadable data shows a marked sample row', async () => {
    mockApi({ ...admin, 'GET /api/direct-unsubscribes': { status: 500, text: 'oops' } });
    const first = renderWithProviders(<UnsubscribeManagementPage />);
    expect(
      await screen.findByText(
        'Failed to load unsubscribe data: Server responded with 500. Please try refreshing the page.',
      ),
    ).toBeTruthy();
    // The list is unknown, not empty.
    expect(screen.queryByText('No unsubscribed emails.')).toBeNull();
    expect(screen.getByText('The list could not be loaded.')).toBeTruthy();
    first.unmount();

    mockApi({ ...admin, 'GET /api/direct-unsubscribes': { json: { unexpected: true } } });
    renderWithProviders(<UnsubscribeManagementPage />);
    expect(await screen.findByText('Sample')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Remove sample@example.com' }) as HTMLButtonElement).disabled).toBe(
        true,
      ),
    );
  });
});
