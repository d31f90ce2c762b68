import { fireEvent, screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { SIGNED_IN, event } from '../shared/testing';
import WebhookEventsPage from './WebhookEventsPage';

describe('/webhooks (spec §2)', () => {
  it('shows the endpoint URL; Copy puts it on the clipboard with the URL Copied toast', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    mockApi({ ...SIGNED_IN, 'GET /api/webhook-events': { json: [] } });
    renderWithProviders(<WebhookEventsPage />);
    const url = `${window.location.origin}/api/webhook`;
    const input = screen.getByLabelText('Webhook endpoint URL') as HTMLInputElement;
    expect(input.value).toBe(url);
    expect(input.readOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('URL Copied');
    expect(writeText).toHaveBeenCalledWith(url);
  });

  it('lists events with type badge colours, received time and the raw payload', async () => {
    const raw = '{"event_type":"purchase_created","amount":49}';
    mockApi({
      ...SIGNED_IN,
      'GET /api/webhook-events': {
        json: [
          event(4, 'purchase_created', raw),
          event(3, 'contact_created'),
          event(2, 'handshake'),
          event(1, 'invalid', 'not json'),
        ],
      },
    });
    renderWithProviders(<WebhookEventsPage />);
    const table = await screen.findByRole('table', { name: 'Webhook events' });
    await screen.findByText(raw);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-event-type'))).toEqual([
      'purchase_created',
      'contact_created',
      'handshake',
      'invalid',
    ]);
    const chip = (type: string) => table.querySelector(`[data-type="${type}"]`)!.className;
    expect(chip('contact_created')).toMatch(/colorPrimary/);
    expect(chip('purchase_created')).toMatch(/colorSuccess/);
    expect(chip('handshake')).toMatch(/colorDefault/);
    expect(chip('invalid')).toMatch(/outlined/i);
    expect(screen.getByText('not json')).toBeTruthy();
    expect(rows[0].querySelector('time')).toBeTruthy();
  });

  it('Refresh loads the list again (nothing reloads by itself)', async () => {
    const calls = mockApi({
      ...SIGNED_IN,
      'GET /api/webhook-events': [{ json: [] }, { json: [event(1, 'contact_created', 'fresh delivery')] }],
    });
    renderWithProviders(<WebhookEventsPage />);
    await screen.findByText('No webhook events yet. Send a webhook to this endpoint to see events here.');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('fresh delivery')).toBeTruthy();
    expect(calls.callsTo('GET', '/api/webhook-events')).toHaveLength(2);
  });

  it('the empty text', async () => {
    mockApi({ ...SIGNED_IN, 'GET /api/webhook-events': { json: [] } });
    renderWithProviders(<WebhookEventsPage />);
    expect(
      await screen.findByText('No webhook events yet. Send a webhook to this endpoint to see events here.'),
    ).toBeTruthy();
  });
});
