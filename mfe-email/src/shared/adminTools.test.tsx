import { fireEvent, screen, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { SIGNED_IN, paged } from './testing';
import { AdminToolsCard } from '../dashboard/AdminToolsCard';

const EMPTY = {
  ...SIGNED_IN,
  'GET /api/contacts?page=1&pageSize=1': paged([], 2),
  'GET /api/email-logs?page=1&pageSize=3': paged([], 0),
};

describe('Admin Tools refused by a production server (403 for a plain user)', () => {
  it('says next to each button that only administrators can, keeping the spec toast', async () => {
    mockApi({
      ...EMPTY,
      'POST /api/test/clear-data': { status: 403, json: { error: 'Admin access required: on this server only administrators can clear all test data' } },
      'POST /api/test/check-abandoned-carts': { status: 403, json: { error: 'Admin access required: on this server only administrators can process missed emails' } },
    });
    renderWithProviders(<AdminToolsCard empty={false} />);
    expect(screen.queryByTestId('admin-only-note')).toBeNull();

    fireEvent.click(await screen.findByRole('button', { name: 'Clear All Test Data' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Test Data' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Failed to clear data:');
    expect((await screen.findByTestId('admin-only-note')).textContent).toBe(
      'Admin access required: on this server only administrators can clear all test data',
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Process Missed Emails' }));
    expect(await screen.findByText('Admin access required: on this server only administrators can process missed emails')).toBeTruthy();
    expect(screen.getAllByTestId('admin-only-note')).toHaveLength(2);
  });

  it('shows no note for another failure, and none when clearing works', async () => {
    mockApi({
      ...EMPTY,
      'POST /api/test/clear-data': [{ status: 500, json: { error: 'Internal server error' } }, { json: { success: true, message: 'Cleared' } }],
    });
    renderWithProviders(<AdminToolsCard empty={false} />);
    for (let i = 0; i < 2; i++) {
      fireEvent.click(await screen.findByRole('button', { name: 'Clear All Test Data' }));
      fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Test Data' }));
      await screen.findAllByTestId('toast');
    }
    expect(screen.getAllByTestId('toast').some((t) => t.textContent?.includes('Data Cleared'))).toBe(true);
    expect(screen.queryByTestId('admin-only-note')).toBeNull();
  });
});
