import { fireEvent, screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { SIGNED_IN, log } from '../shared/testing';
import EmailLogsPage from './EmailLogsPage';

describe('/email-logs (spec §2, §9)', () => {
  it('columns ID, Contact ID, Email, Timestamp, Message, paged in the browser 25 at a time', async () => {
    const logs = Array.from({ length: 30 }, (_, i) => log(30 - i));
    mockApi({ ...SIGNED_IN, 'GET /api/email-logs': { json: logs } });
    renderWithProviders(<EmailLogsPage />);
    const table = await screen.findByRole('table', { name: 'Email logs' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', 'Contact ID', 'Email', 'Timestamp', 'Message']);
    await screen.findByText('person30@example.com');
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    const first = within(within(table).getAllByRole('row')[1]).getAllByRole('cell');
    expect(first.map((c) => c.textContent)).toEqual([
      '30',
      'c-30',
      'person30@example.com',
      expect.any(String),
      'Abandoned cart reminder would be sent to person30@example.com',
    ]);
    expect(screen.getByText('Showing 1 to 25 of 30 results')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByText('Showing 26 to 30 of 30 results')).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(6);
  });

  it("shows what Resend reported after sending under the message (delivered, bounced, marked as spam)", async () => {
    const sent = (id: number, delivery: string | null) => ({ ...log(id), status: 'sent', message: `Sent ${id}`, delivery });
    mockApi({ ...SIGNED_IN, 'GET /api/email-logs': { json: [sent(3, 'complained'), sent(2, 'bounced'), sent(1, null)] } });
    renderWithProviders(<EmailLogsPage />);
    await screen.findByText('Sent 3');
    expect(screen.getAllByTestId('delivery-chip').map((c) => c.textContent)).toEqual(['Marked as spam', 'Bounced']);
  });

  it('the empty text', async () => {
    mockApi({ ...SIGNED_IN, 'GET /api/email-logs': { json: [] } });
    renderWithProviders(<EmailLogsPage />);
    expect(await screen.findByText('No email logs found. Abandoned cart emails will appear here.')).toBeTruthy();
  });

  it('a failed load shows the error card', async () => {
    mockApi({ ...SIGNED_IN, 'GET /api/email-logs': { status: 502, text: 'Bad Gateway' } });
    renderWithProviders(<EmailLogsPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('502: Bad Gateway');
  });
});
