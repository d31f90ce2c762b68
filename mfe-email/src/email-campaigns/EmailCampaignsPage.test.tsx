import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import EmailCampaignsPage from './EmailCampaignsPage';

const user = { 'GET /api/user': { json: { authenticated: false } } };
const campaign = {
  id: 4,
  name: 'Spring recovery',
  description: null,
  type: 'abandoned_cart',
  active: true,
  created_at: '2026-03-01T09:30:00.000Z',
  on_cart_change: 'continue',
  priority: 0,
};

describe('/email-campaigns (spec §2)', () => {
  it('shows the empty message', async () => {
    mockApi({ ...user, 'GET /api/email/campaigns': { json: [] } });
    renderWithProviders(<EmailCampaignsPage />);
    expect(
      await screen.findByText('No campaigns found. Create your first campaign using the button above.'),
    ).toBeTruthy();
  });

  it('lists campaigns with a dash for no description and links to their templates', async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns': {
        json: [campaign, { ...campaign, id: 5, name: 'B', description: 'Second', active: false }],
      },
    });
    renderWithProviders(<EmailCampaignsPage />);
    const row = (await screen.findByText('Spring recovery')).closest('tr')!;
    expect(within(row).getByText('—')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('abandoned_cart')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Templates of Spring recovery' }).getAttribute('href')).toBe(
      '/email-templates/4',
    );
    const other = screen.getByText('B').closest('tr')!;
    expect(within(other).getByText('Second')).toBeTruthy();
    expect(within(other).getByText('Inactive')).toBeTruthy();
  });

  it("shows 'Error loading campaigns' with the message", async () => {
    mockApi({ ...user, 'GET /api/email/campaigns': { status: 500, json: { error: 'Internal server error' } } });
    renderWithProviders(<EmailCampaignsPage />);
    expect(await screen.findByText('Error loading campaigns')).toBeTruthy();
    expect(screen.getByText('Internal server error')).toBeTruthy();
  });

  it('validates the name and creates with the default type', async () => {
    const api = mockApi({
      ...user,
      'GET /api/email/campaigns': { json: [] },
      'POST /api/email/campaigns': { status: 201, json: { ...campaign, id: 9, name: 'New one' } },
    });
    renderWithProviders(<EmailCampaignsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create Campaign' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Campaign Type') as HTMLInputElement).value).toBe('abandoned_cart');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await within(dialog).findByText('Campaign name is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Campaign Name/), { target: { value: ' New one ' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'When the cart changes' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Restart from the first template' }));
    fireEvent.change(within(dialog).getByRole('spinbutton', { name: 'Priority' }), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText('Campaign created')).toBeTruthy();
    expect(api.callsTo('POST', '/api/email/campaigns')[0].body).toEqual({
      name: 'New one',
      description: null,
      type: 'abandoned_cart',
      active: true,
      on_cart_change: 'restart',
      priority: 2,
    });
  });

  it('asks before deleting, naming the campaign, and reports a failure with the server message', async () => {
    const api = mockApi({
      ...user,
      'GET /api/email/campaigns': { json: [campaign] },
      'DELETE /api/email/campaigns/4': { status: 404, json: { error: 'Campaign not found' } },
    });
    renderWithProviders(<EmailCampaignsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Spring recovery' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        'This will permanently delete the campaign "Spring recovery" and cannot be undone. All templates associated with this campaign will be orphaned.',
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/email/campaigns/4')).toHaveLength(1));
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Error')).toBeTruthy();
    expect(within(toast).getByText('Campaign not found')).toBeTruthy();
  });
});
