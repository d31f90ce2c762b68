import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import EmailTemplatesPage from './EmailTemplatesPage';

const user = { 'GET /api/user': { json: { authenticated: false } } };
const campaign = {
  id: 5,
  name: 'Spring',
  description: null,
  type: 'winback',
  active: true,
  created_at: '2026-03-01T09:30:00.000Z',
};
const template = (id: number, order: number, delay: number, name: string) => ({
  id,
  name,
  subject: `Subject ${name}`,
  from_name: 'Notification',
  html_content: '<p>Hi</p>',
  type: 'winback',
  active: id !== 3,
  campaign_id: 5,
  template_order: order,
  delay_hours: delay,
  created_at: '2026-03-02T10:00:00.000Z',
});

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/email-templates/:campaignId" element={<EmailTemplatesPage />} />
    </Routes>,
    { route: path },
  );
}

describe('/email-templates/{campaignId} (spec §2)', () => {
  it('titles the page after the campaign and lists templates in order with delay labels', async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': {
        json: [template(3, 3, 50, 'Third'), template(1, 1, 0, 'First'), template(2, 2, 24, 'Second')],
      },
    });
    renderAt('/email-templates/5');
    expect(await screen.findByRole('heading', { name: 'Email Templates - Spring' })).toBeTruthy();
    expect(screen.getByText('Manage templates for winback emails')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Campaigns' }).getAttribute('href')).toBe('/email-campaigns');
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent)).toEqual(['First', 'Second', 'Third']);
    expect(rows.map((r) => within(r).getAllByRole('cell')[3].textContent)).toEqual([
      'No delay',
      '1 day',
      '2 days 2 hours',
    ]);
    expect(within(rows[2]).getByText('Inactive')).toBeTruthy();
  });

  it('uses the description as subtitle and shows the empty message', async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: { ...campaign, description: 'Three nudges' } },
      'GET /api/resend/templates/campaign/5': { json: [] },
    });
    renderAt('/email-templates/5');
    expect(await screen.findByText('Three nudges')).toBeTruthy();
    expect(
      await screen.findByText('No templates found. Create your first template using the button above.'),
    ).toBeTruthy();
  });

  it.each(['0', '-2', 'abc'])('id %s disables the loads and shows the error panel', async (id) => {
    const api = mockApi({ ...user });
    renderAt(`/email-templates/${id}`);
    expect(await screen.findByText('Error loading campaign or templates')).toBeTruthy();
    expect(screen.getByText('The campaign might not exist or there was an error fetching data.')).toBeTruthy();
    expect(api.calls.filter((c) => c.path !== '/api/user')).toEqual([]);
  });

  it('shows the error panel when the campaign does not exist', async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns/5': { status: 404, json: { error: 'Campaign not found' } },
      'GET /api/resend/templates/campaign/5': { json: [] },
    });
    renderAt('/email-templates/5');
    expect(await screen.findByText('Error loading campaign or templates')).toBeTruthy();
  });

  it('sends a test email only with an address, and shows a failure in the dialog and a toast', async () => {
    const api = mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': { json: [template(1, 1, 0, 'First')] },
      'POST /api/resend/templates/1/test': [
        { status: 503, json: { error: 'Resend is not configured' } },
        { json: { success: true, message: 'Test email sent to me@example.com', messageId: 'msg_123' } },
      ],
    });
    renderAt('/email-templates/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Send test email: First' }));
    const dialog = await screen.findByRole('dialog');
    const send = within(dialog).getByRole('button', { name: 'Send Test' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    const input = within(dialog).getByLabelText('Email Address') as HTMLInputElement;
    expect(input.type).toBe('email');
    fireEvent.change(input, { target: { value: 'me@example.com' } });
    fireEvent.click(send);
    expect(await within(dialog).findByTestId('test-email-error')).toBeTruthy();
    expect(within(dialog).getByText('Resend is not configured')).toBeTruthy();
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Error sending test email')).toBeTruthy();
    expect(api.callsTo('POST', '/api/resend/templates/1/test')[0].body).toEqual({ testEmail: 'me@example.com' });

    fireEvent.click(send);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = await screen.findByText('Test email sent');
    expect(sent.parentElement!.textContent).toContain(
      'Test email sent to me@example.com. Message ID: msg_123 Please check your inbox.',
    );
  });

  it("success: false is a failure with the server's message, else the Resend fallback", async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': { json: [template(1, 1, 0, 'First')] },
      'POST /api/resend/templates/1/test': { json: { success: false } },
    });
    renderAt('/email-templates/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Send test email: First' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Email Address'), { target: { value: 'me@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    expect(
      await within(dialog).findByText('Failed to send test email. Please check your Resend API configuration.'),
    ).toBeTruthy();
  });

  it("asks 'Are you sure?' before deleting", async () => {
    const api = mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': { json: [template(1, 1, 0, 'First')] },
      'DELETE /api/resend/templates/1': { json: { message: 'deleted' } },
    });
    renderAt('/email-templates/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete First' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Template deleted')).toBeTruthy();
    expect(api.callsTo('DELETE', '/api/resend/templates/1')).toHaveLength(1);
  });

  it('creates a template after the last one, with the campaign id and type', async () => {
    const api = mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': { json: [template(1, 1, 0, 'First')] },
      'POST /api/resend/templates': { status: 201, json: template(2, 2, 24, 'Second') },
    });
    renderAt('/email-templates/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Template' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Create Template' })).toBeTruthy();
    expect((within(dialog).getByLabelText(/From Name/) as HTMLInputElement).value).toBe('Notification');
    expect((within(dialog).getByLabelText('Order') as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByLabelText('Delay') as HTMLInputElement).value).toBe('24');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    expect(await within(dialog).findByText('Template name is required')).toBeTruthy();
    expect(within(dialog).getByText('Subject is required')).toBeTruthy();
    expect(within(dialog).getByText('Email content is required')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/Template Name/), { target: { value: 'Second' } });
    fireEvent.change(within(dialog).getByLabelText(/Subject/), { target: { value: 'Still there?' } });
    fireEvent.click(within(dialog).getByRole('tab', { name: 'HTML' }));
    fireEvent.change(within(dialog).getByLabelText('HTML content'), {
      target: { value: '<p style="color:red">Hi {{contactEmail}}</p>' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    expect(await screen.findByText('Template created')).toBeTruthy();
    expect(api.callsTo('POST', '/api/resend/templates')[0].body).toEqual({
      name: 'Second',
      subject: 'Still there?',
      from_name: 'Notification',
      html_content: '<p style="color:red">Hi {{contactEmail}}</p>',
      template_order: 2,
      delay_hours: 24,
      active: true,
      campaign_id: 5,
      type: 'winback',
    });
  });

  it('offers the three variables, the unsubscribe link among them, and puts one where the cursor is in the HTML', async () => {
    mockApi({
      ...user,
      'GET /api/email/campaigns/5': { json: campaign },
      'GET /api/resend/templates/campaign/5': { json: [] },
    });
    renderAt('/email-templates/5');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Template' }));
    const dialog = await screen.findByRole('dialog');
    const chips = ['contactEmail', 'recoveryUrl', 'unsubscribeUrl'].map((v) =>
      within(dialog).getByRole('button', { name: new RegExp(`^Insert \\{\\{${v}\\}\\}`) }),
    );
    expect(chips.map((c) => c.textContent)).toEqual(['{{contactEmail}}', '{{recoveryUrl}}', '{{unsubscribeUrl}}']);

    fireEvent.click(within(dialog).getByRole('tab', { name: 'HTML' }));
    const html = within(dialog).getByLabelText('HTML content') as HTMLTextAreaElement;
    const before = '<p>Bye</p><a href="';
    fireEvent.change(html, { target: { value: `${before}">Unsubscribe</a>` } });
    html.setSelectionRange(before.length, before.length);
    fireEvent.click(chips[2]!);
    expect(html.value).toBe('<p>Bye</p><a href="{{unsubscribeUrl}}">Unsubscribe</a>');
  });
});
