import { screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsWebhookEventsPage from './SmsWebhookEventsPage';
import { choose, click, event, signedIn } from '../test/fixtures';

const bigPayload = JSON.stringify({
  event: 'contact_created',
  funnel_id: 'f-1',
  contact: { id: 'c-1', phone: '+15551230000', note: 'x'.repeat(200) },
});
const events = [
  event(1, { type: 'contact', payload: bigPayload }),
  event(2, { type: 'purchase', payload: '{"event":"purchase_created"}' }),
  event(3, { type: 'sms_delivery', payload: '{"MessageStatus":"delivered"}' }),
  event(4, { type: 'sms_reply', payload: '{"Body":"STOP"}' }),
  event(5, { type: 'handshake', payload: '{"event":"handshake"}' }),
];

describe('/sms-webhook-events (spec sections 2, 4, 9)', () => {
  it('counts per type, gives unknown types a generic badge and previews payloads at 100 characters', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-webhook-events': { json: events } });
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    const card = (label: string) => within(screen.getByTestId(`summary-${label}`));
    expect(card('Total').getByText('5')).toBeTruthy();
    for (const label of ['Contact', 'Purchase', 'SMS Delivery', 'SMS Reply'])
      expect(card(label).getByText('1')).toBeTruthy();
    expect(screen.getByText(`${bigPayload.slice(0, 100)}...`)).toBeTruthy();
    expect(screen.getByText('handshake').closest('.MuiChip-outlined')).toBeTruthy();
  });

  it('filters by type', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-webhook-events': { json: events } });
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    await choose('Type', 'SMS Reply');
    expect(screen.getAllByTestId('event-row')).toHaveLength(1);
    expect(screen.getByText('{"Body":"STOP"}')).toBeTruthy();
  });

  it('View shows the whole payload pretty-printed', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-webhook-events': { json: events } });
    renderWithProviders(<SmsWebhookEventsPage />);
    await screen.findAllByTestId('event-row');
    await click(screen.getByRole('button', { name: 'View event 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Webhook Event #1' });
    expect(within(dialog).getByTestId('payload-json').textContent).toBe(
      JSON.stringify(JSON.parse(bigPayload), null, 2),
    );
  });
});
