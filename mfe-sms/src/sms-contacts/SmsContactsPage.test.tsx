import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsContactsPage from './SmsContactsPage';
import {
  change,
  choose,
  click,
  contact,
  integration,
  pageButton,
  pageButtons,
  pager,
  signedIn,
} from '../test/fixtures';

// 450 contacts: 9 pages of 50.
const many = Array.from({ length: 450 }, (_, i) =>
  contact(i + 1, {
    status: i % 3 === 0 ? 'sent' : 'pending',
    integration_id: i % 2 ? 1 : 2,
    integration_name: i % 2 ? 'Integration 1' : 'Integration 2',
  }),
);
const routes = {
  ...signedIn,
  'GET /api/sms-contacts': { json: many },
  'GET /api/sms-webhook-integrations': { json: [integration(1), integration(2)] },
};

// Paging re-renders 50 MUI table rows per click: slow in jsdom, so these tests get more time.
jest.setTimeout(60_000);

const rows = () => screen.getAllByTestId('contact-row');

describe('/sms-contacts paging (spec section 9)', () => {
  it('shows 50 rows by default, sizes 25/50/100/250/500, and at most 5 page buttons sliding with the page', async () => {
    mockApi(routes);
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    expect(rows()).toHaveLength(50);
    expect(screen.getByText('Showing 1 to 50 of 450 results')).toBeTruthy();
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);

    // The window centres on the current page...
    await click(pageButton('Page 5'));
    expect(pageButtons()).toEqual([3, 4, 5, 6, 7]);
    expect(pageButton('Page 5').getAttribute('aria-current')).toBe('page');
    // ...and stays pinned to the last five pages at the end.
    await click(pageButton('Page 7'));
    expect(pageButtons()).toEqual([5, 6, 7, 8, 9]);
    await click(pageButton('Page 9'));
    expect(pageButtons()).toEqual([5, 6, 7, 8, 9]);
    expect(screen.getByText('Showing 401 to 450 of 450 results')).toBeTruthy();
    expect((pageButton('Next page') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.mouseDown(within(pager()).getByLabelText('Rows per page', { selector: '[role="combobox"]' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['25', '50', '100', '250', '500']);
  });

  it('returns to page 1 when the page size changes', async () => {
    mockApi(routes);
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(pageButton('Page 3'));
    await choose('Rows per page', '100');
    expect(rows()).toHaveLength(100);
    expect(screen.getByText('Showing 1 to 100 of 450 results')).toBeTruthy();
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);
  });

  it('returns to page 1 when a filter or the search changes', async () => {
    mockApi(routes);
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(pageButton('Page 5'));
    await choose('Status', 'Sent');
    expect(screen.getByText('Showing 1 to 50 of 150 results')).toBeTruthy();
    await click(pageButton('Page 3'));
    await choose('Integration', 'Integration 1');
    expect(pageButton('Page 1').getAttribute('aria-current')).toBe('page');
    await click(pageButton('Page 2'));
    await change(screen.getByLabelText('Search'), 'c-10');
    expect(pageButton('Page 1').getAttribute('aria-current')).toBe('page');
  });
});

describe('/sms-contacts contents and actions (spec sections 2, 4, 8)', () => {
  const few = [
    contact(1, { status: 'pending' }),
    contact(2, { status: 'purchased' }),
    contact(3, { status: 'skipped_duplicate', opted_out: true }),
    contact(4, { status: 'sent' }),
  ];

  it('counts Total, Pending, Purchased and SMS Sent, labels skipped_duplicate and marks opted-out phones', async () => {
    mockApi({ ...signedIn, 'GET /api/sms-contacts': { json: few }, 'GET /api/sms-webhook-integrations': { json: [] } });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    expect(within(screen.getByTestId('summary-Total')).getByText('4')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Pending')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Purchased')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('summary-SMS Sent')).getByText('1')).toBeTruthy();
    expect(screen.getByText('Duplicate Blocked')).toBeTruthy();
    expect(screen.getByText('Opted out')).toBeTruthy();
    // Every row but the purchased one offers the action.
    expect(screen.getAllByRole('button', { name: 'Mark Purchased' })).toHaveLength(3);
  });

  it("'Mark Purchased' asks first, posts the contact's id, then refetches", async () => {
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-contacts': [
        { json: few },
        { json: few.map((c) => (c.id === 1 ? { ...c, status: 'purchased' as const } : c)) },
      ],
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/mark-purchased': { json: { success: true, message: 'Contact marked as purchased' } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getAllByRole('button', { name: 'Mark Purchased' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Mark Contact as Purchased' });
    expect(api.callsTo('POST', '/api/sms-contacts/mark-purchased')).toHaveLength(0);
    await click(within(dialog).getByRole('button', { name: 'Mark Purchased' }));
    expect(await screen.findByText('Contact marked as purchased')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-contacts/mark-purchased')[0]!.body).toEqual({ contact_id: 1 });
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Mark Purchased' })).toHaveLength(2));
  });

  it("shows 'Failed to mark contact as purchased: {message}'", async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts': { json: few },
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/mark-purchased': { status: 404, json: { error: 'SMS contact not found' } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getAllByRole('button', { name: 'Mark Purchased' })[0]!);
    await click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark Purchased' }));
    expect(await screen.findByText('Failed to mark contact as purchased: SMS contact not found')).toBeTruthy();
  });

  it("'Clear All Contacts' acts at once, without a confirmation", async () => {
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-contacts': [{ json: few }, { json: [] }],
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/clear': { json: { success: true, message: 'All SMS contacts cleared', deleted: 4 } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('All SMS contacts cleared')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-contacts/clear')).toHaveLength(1);
    expect(await screen.findByText('No SMS contacts yet')).toBeTruthy();
  });

  it("shows 'Failed to clear contacts: {message}'", async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts': { json: few },
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/clear': { status: 500, json: { error: 'Internal server error' } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    expect(await screen.findByText('Failed to clear contacts: Internal server error')).toBeTruthy();
  });
});
