import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, PLAIN_USER, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import UsersPage from './UsersPage';

const asAdmin = { 'GET /api/user': { json: { ...ADMIN, authenticated: true } } };

async function openUsers() {
  renderWithProviders(<UsersPage />, { route: '/users' });
}

describe('/users (spec §2, §4, §5, §6, §8)', () => {
  it('non-admins get Access Denied and never load the list', async () => {
    const api = mockApi({ 'GET /api/user': { json: { ...PLAIN_USER, authenticated: true } } });
    await openUsers();
    expect(await screen.findByText('Access Denied')).toBeTruthy();
    expect(
      screen.getByText('You do not have permission to access this page. Only administrators can manage users.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Return to Dashboard' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/users')).toHaveLength(0);
  });

  it('lists users with the spec columns; own row: delete disabled', async () => {
    mockApi({ ...asAdmin, 'GET /api/users': { json: [ADMIN, PLAIN_USER] } });
    await openUsers();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Username', 'Full Name', 'Email', 'Role', 'Created', 'Actions']);
    await screen.findByText('bob');
    fireEvent.click(screen.getByRole('button', { name: 'Actions for admin' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Edit user', 'Reset password', 'Delete user']);
    expect(within(menu).getByRole('menuitem', { name: 'Delete user' }).getAttribute('aria-disabled')).toBe('true');
  });

  it("'No users' when the list is empty", async () => {
    mockApi({ ...asAdmin, 'GET /api/users': { json: [] } });
    await openUsers();
    expect(await screen.findByText('No users')).toBeTruthy();
  });

  it("load failure: 'Error Loading Users' with Retry", async () => {
    const api = mockApi({
      ...asAdmin,
      'GET /api/users': [{ status: 500, json: { error: 'boom' } }, { json: [ADMIN] }],
    });
    await openUsers();
    expect(await screen.findByText('Error Loading Users')).toBeTruthy();
    expect(screen.getByText('500: {"error":"boom"}')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Users' })).toBeTruthy();
    expect(api.callsTo('GET', '/api/users')).toHaveLength(2);
  });

  it('create user: validation messages, then POST and User Created', async () => {
    const api = mockApi({
      ...asAdmin,
      'GET /api/users': { json: [ADMIN] },
      'POST /api/users': [
        { status: 409, json: { error: 'Username already exists' } },
        { status: 201, json: { ...PLAIN_USER, id: 3 } },
      ],
    });
    await openUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New User' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText('Username is required')).toBeTruthy();
    expect(within(dialog).getByText('Password is required')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'ab' } });
    fireEvent.change(within(dialog).getByLabelText(/Password/), { target: { value: '123' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText('Username must be at least 3 characters')).toBeTruthy();
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeTruthy();
    expect(within(dialog).getByText('Please enter a valid email address')).toBeTruthy();
    expect(api.callsTo('POST', '/api/users')).toHaveLength(0);

    // The server's upper bounds show inline too, before any request.
    fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'u'.repeat(300) } });
    fireEvent.change(within(dialog).getByLabelText('Full Name'), { target: { value: 'n'.repeat(500) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText('Username must be at most 64 characters')).toBeTruthy();
    expect(within(dialog).getByText('Full name must be at most 200 characters')).toBeTruthy();
    expect(api.callsTo('POST', '/api/users')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('Full Name'), { target: { value: '' } });

    fireEvent.change(within(dialog).getByLabelText(/Username/), { target: { value: 'carol' } });
    fireEvent.change(within(dialog).getByLabelText(/Password/), { target: { value: 'secret1' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'carol@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User Creation Failed')).toBeTruthy();
    expect(screen.getByText('Username already exists')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('User Created')).toBeTruthy();
    expect(api.callsTo('POST', '/api/users')[1].body).toEqual({
      username: 'carol',
      password: 'secret1',
      email: 'carol@example.com',
      full_name: null,
      role: 'user',
    });
    await waitFor(() => expect(api.callsTo('GET', '/api/users').length).toBe(2));
  });

  it('edit user: own role cannot be changed; PATCH and User Updated', async () => {
    const api = mockApi({
      ...asAdmin,
      'GET /api/users': { json: [ADMIN, PLAIN_USER] },
      'PATCH /api/users/2': { json: PLAIN_USER },
    });
    await openUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for admin' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit user' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByRole('combobox', { name: /Role/ }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit User' })).toBeNull());

    fireEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit user' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByRole('combobox', { name: /Role/ }).getAttribute('aria-disabled')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'bad' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'bob@new.example' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User Updated')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/users/2')[0].body).toEqual({
      email: 'bob@new.example',
      full_name: 'Bob Builder',
      role: 'user',
    });
  });

  it('reset password: messages, then only { password } is sent', async () => {
    const api = mockApi({
      ...asAdmin,
      'GET /api/users': { json: [ADMIN, PLAIN_USER] },
      'POST /api/users/2/reset-password': { json: { message: 'ok' } },
    });
    await openUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await within(dialog).findByText('Password is required')).toBeTruthy();
    expect(within(dialog).getByText('Please confirm the password')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('New Password'), { target: { value: '12345' } });
    fireEvent.change(within(dialog).getByLabelText('Confirm Password'), { target: { value: '54321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await within(dialog).findByText('Password must be at least 6 characters')).toBeTruthy();
    expect(within(dialog).getByText('Passwords do not match')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('New Password'), { target: { value: 'newpass1' } });
    fireEvent.change(within(dialog).getByLabelText('Confirm Password'), { target: { value: 'newpass1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password Reset')).toBeTruthy();
    expect(api.callsTo('POST', '/api/users/2/reset-password')[0].body).toEqual({ password: 'newpass1' });
  });

  it("delete user: 'Delete User' dialog, DELETE, then 'User Deleted' (or 'Deletion Failed')", async () => {
    const api = mockApi({
      ...asAdmin,
      'GET /api/users': { json: [ADMIN, PLAIN_USER] },
      'DELETE /api/users/2': [{ status: 400, json: { error: 'nope' } }, { json: { message: 'deleted' } }],
    });
    await openUsers();
    const remove = async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Actions for bob' }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete user' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete User' });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    };
    await remove();
    expect(await screen.findByText('Deletion Failed')).toBeTruthy();
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Delete User' })).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete User' })).toBeNull());
    await remove();
    expect(await screen.findByText('User Deleted')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/users/2')).toHaveLength(2);
  });
});
