import { screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsLogsPage, { logSummary } from './SmsLogsPage';
import { choose, log, signedIn } from '../test/fixtures';

const longMessage = 'M'.repeat(50) + 'TAIL-OF-THE-MESSAGE';
const longError = 'E'.repeat(30) + 'TAIL-OF-THE-ERROR';
const logs = [
  log(1, { status: 'sent', message: longMessage }),
  log(2, { status: 'delivered', message: 'm'.repeat(50) }),
  log(3, { status: 'failed', error_message: longError }),
  log(4, { status: 'undelivered', error_message: 'e'.repeat(30) }),
  log(5, { status: 'pending' }),
  log(6, { status: 'queued' }),
  log(7, { status: 'queued' }),
  log(8, { status: 'skipped_duplicate' }),
];

describe('/sms-logs (spec sections 2, 4, 9)', () => {
  it('groups the five summary figures: failed + undelivered, pending + queued', () => {
    expect(logSummary(logs)).toEqual({ total: 8, sent: 1, delivered: 1, failed: 2, pending: 3 });
  });

  it('shows the five cards, the message cut at 50 and the error at 30 characters', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-logs': { json: logs } });
    renderWithProviders(<SmsLogsPage />);
    await screen.findAllByTestId('log-row');
    const card = (label: string) => within(screen.getByTestId(`summary-${label}`));
    expect(card('Total').getByText('8')).toBeTruthy();
    expect(card('Sent').getByText('1')).toBeTruthy();
    expect(card('Delivered').getByText('1')).toBeTruthy();
    expect(card('Failed').getByText('2')).toBeTruthy();
    expect(card('Pending').getByText('3')).toBeTruthy();

    expect(screen.getByText(`${'M'.repeat(50)}...`)).toBeTruthy();
    expect(screen.queryByText(longMessage)).toBeNull();
    expect(screen.getByText('m'.repeat(50))).toBeTruthy();
    expect(screen.getByText(`${'E'.repeat(30)}...`)).toBeTruthy();
    expect(screen.getByText('e'.repeat(30))).toBeTruthy();
    // Undelivered is shown as Failed.
    expect(screen.getAllByText('Failed').length).toBeGreaterThanOrEqual(3);
  });

  it('filters by status group and by search', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-logs': { json: logs } });
    renderWithProviders(<SmsLogsPage />);
    await screen.findAllByTestId('log-row');
    await choose('Status', 'Pending');
    expect(screen.getAllByTestId('log-row')).toHaveLength(3);
    await choose('Status', 'Failed');
    expect(screen.getAllByTestId('log-row')).toHaveLength(2);
    expect(screen.getByText('Showing 1 to 2 of 2 results')).toBeTruthy();
  });
});
