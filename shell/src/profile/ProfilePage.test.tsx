import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ADMIN, mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import ProfilePage from './ProfilePage';

const signedIn = { 'GET /api/user': { json: { ...ADMIN, authenticated: true } } };

async function openProfile() {
  renderWithProviders(<ProfilePage />, { route: '/profile' });
  await screen.findByRole('tab', { name: 'Profile' });
}

describe('/profile (spec §2, §5, §8)', () => {
  it('shows the tabs, the account information and a read-only username', async () => {
    mockApi(signedIn);
    await openProfile();
    expect(screen.getByRole('tab', { name: 'Change Password' })).toBeTruthy();
    expect(screen.getByText('Account Information')).toBeTruthy();
    expect(screen.getByText('Administrator')).toBeTruthy();
    expect(screen.getByText('User ID')).toBeTruthy();
    expect(screen.getByText('Created')).toBeTruthy();
    expect(screen.getByText('Last Updated')).toBeTruthy();
    const username = screen.getByLabelText('Username') as HTMLInputElement;
    expect(username.value).toBe('admin');
    expect(username.readOnly).toBe(true);
    expect(screen.getByText('Your username cannot be changed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeTruthy();
  });

  it("rejects a malformed email: 'Please enter a valid email address', nothing sent", async () => {
    const api = mockApi(signedIn);
    await openProfile();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/profile')).toHaveLength(0);
  });

  it("saves { full_name, email } and shows 'Profile Updated'", async () => {
    const api = mockApi({ ...signedIn, 'PATCH /api/profile': { json: { ...ADMIN, full_name: 'Ada L.' } } });
    await openProfile();
    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: '  Ada L. ' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile Updated')).toBeTruthy();
    expect(api.callsTo('PATCH', '/api/profile')[0].body).toEqual({ full_name: 'Ada L.', email: null });
  });

  it("update failure: 'Update Failed' with the server's error, else 'Failed to update profile'", async () => {
    mockApi({
      ...signedIn,
      'PATCH /api/profile': [
        { status: 400, json: { error: 'Email already in use' } },
        { status: 500, text: '' },
      ],
    });
    await openProfile();
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Update Failed')).toBeTruthy();
    expect(screen.getByText('Email already in use')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update profile')).toBeTruthy();
  });

  it('change password: every validation message of §5', async () => {
    const api = mockApi(signedIn);
    await openProfile();
    fireEvent.click(screen.getByRole('tab', { name: 'Change Password' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(screen.getByText('New password is required')).toBeTruthy();
    expect(screen.getByText('Please confirm your new password')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('New Password'), { target: { value: '123' } });
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: '1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(api.callsTo('POST', '/api/profile/change-password')).toHaveLength(0);
  });

  it("change password sends { currentPassword, newPassword, confirmPassword }: 'Password Changed' / 'Password Change Failed'", async () => {
    const api = mockApi({
      ...signedIn,
      'POST /api/profile/change-password': [
        { json: { message: 'Password changed successfully' } },
        { status: 400, json: { error: 'Current password is incorrect' } },
        { status: 500, text: '' },
      ],
    });
    await openProfile();
    fireEvent.click(screen.getByRole('tab', { name: 'Change Password' }));
    const fill = () => {
      fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: 'oldpass' } });
      fireEvent.change(screen.getByLabelText('New Password'), { target: { value: 'newpass1' } });
      fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'newpass1' } });
      fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    };
    fill();
    expect(await screen.findByText('Password Changed')).toBeTruthy();
    expect(api.callsTo('POST', '/api/profile/change-password')[0].body).toEqual({
      currentPassword: 'oldpass',
      newPassword: 'newpass1',
      confirmPassword: 'newpass1',
    });
    await waitFor(() => expect((screen.getByLabelText('Current Password') as HTMLInputElement).value).toBe(''));
    fill();
    expect(await screen.findByText('Password Change Failed')).toBeTruthy();
    expect(screen.getByText('Current password is incorrect')).toBeTruthy();
    fill();
    expect(await screen.findByText('Failed to change password')).toBeTruthy();
  });
});
