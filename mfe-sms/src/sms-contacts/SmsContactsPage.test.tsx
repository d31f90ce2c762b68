import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatTime } from '@act/ui-kit';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import SmsContactsPage from './SmsContactsPage';
import type { SmsContact } from '@act/contracts/src/sms-api';
import {
  change,
  choose,
  click,
  contact,
  integration,
  pageButton,
  pageButtons,
  pagedList,
  pager,
  queriesTo,
  searchHits,
  signedIn,
} from '../test/fixtures';

/** svc-sms's paged contacts, over `rows()`: filters, search, page, total and the four cards over every row. */
const contactsServer = (rows: () => readonly SmsContact[]) =>
  pagedList(rows, {
    matches: (c, q) => {
      const status = q.get('status');
      const integrationId = q.get('integration_id');
      if (status && c.status !== status) return false;
      if (integrationId === 'none' && c.integration_id !== null) return false;
      if (integrationId && integrationId !== 'none' && c.integration_id !== Number(integrationId)) return false;
      return searchHits(q, [c.phone, c.contact_id, c.funnel_id, c.first_name, c.email, c.integration_name]);
    },
    summary: (all) => {
      const real = all.filter((c) => !c.test);
      return {
        total: real.length,
        pending: real.filter((c) => c.status === 'pending').length,
        purchased: real.filter((c) => c.status === 'purchased').length,
        sent: real.filter((c) => c.status === 'sent').length,
        tests: all.length - real.length,
      };
    },
  });

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
  'GET /api/sms-contacts?': contactsServer(() => many),
  'GET /api/sms-webhook-integrations': { json: [integration(1), integration(2)] },
};

// Paging re-renders 50 MUI table rows per click: slow in jsdom, so these tests get more time.
jest.setTimeout(60_000);

const rows = () => screen.getAllByTestId('contact-row');

describe('/sms-contacts: a contact held by the blackout', () => {
  it("says so, and until when, under its status", async () => {
    const until = new Date();
    until.setHours(8, 0, 0, 0);
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => [
        contact(1, { held_until: until.toISOString(), held_by: 'blackout' }),
        contact(2),
        contact(3, { held_until: until.toISOString(), held_by: 'frequency_cap' }),
      ]),
      'GET /api/sms-webhook-integrations': { json: [integration(1)] },
    });
    renderWithProviders(<SmsContactsPage />);
    const held = await screen.findAllByTestId('held-until');
    // The shared formatter's time, with the viewer's zone named: the window is set in another zone.
    expect(formatTime(until, { zone: true })).toMatch(/^0?8[:.]00/);
    expect(held.map((h) => h.textContent).sort()).toEqual([
      `Held until ${formatTime(until, { zone: true })} (blackout)`,
      `Held until ${formatTime(until, { zone: true })} (frequency cap)`,
    ]);
  });
});

describe('/sms-contacts paging (spec section 9)', () => {
  it('shows 50 rows by default, sizes 25/50/100/250/500, and at most 5 page buttons sliding with the page', async () => {
    const api = mockApi(routes);
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
    // Each page is asked of the server, never the whole list.
    expect(queriesTo(api.calls, '/api/sms-contacts').map((q) => q.toString())).toEqual(
      [1, 5, 7, 9].map((p) => `page=${p}&pageSize=50`),
    );
    expect(api.callsTo('GET', '/api/sms-contacts')).toHaveLength(0);

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

  it('returns to page 1 when a filter or the search changes, and asks the server with them', async () => {
    const api = mockApi(routes);
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(pageButton('Page 5'));
    await choose('Status', 'Sent');
    expect(await screen.findByText('Showing 1 to 50 of 150 results')).toBeTruthy();
    await click(pageButton('Page 3'));
    await choose('Integration', 'Integration 1');
    expect(pageButton('Page 1').getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('Showing 1 to 50 of 75 results')).toBeTruthy();
    await click(pageButton('Page 2'));
    await change(screen.getByLabelText('Search'), ' c-10 ');
    // The search waits for the typing to pause, then goes to the server trimmed, from page 1.
    await waitFor(() => expect(pageButton('Page 1').getAttribute('aria-current')).toBe('page'));
    expect(await screen.findByText('Showing 1 to 3 of 3 results')).toBeTruthy();
    expect(queriesTo(api.calls, '/api/sms-contacts').at(-1)!.toString()).toBe(
      'page=1&pageSize=50&search=c-10&status=sent&integration_id=1',
    );
    await choose('Integration', 'No Integration');
    expect(await screen.findByText('No contacts match these filters')).toBeTruthy();
    expect(queriesTo(api.calls, '/api/sms-contacts').at(-1)!.get('integration_id')).toBe('none');
  });
});

describe('/sms-contacts while a page loads', () => {
  it('never shows rows of other filters: a search being typed hides the table until its page arrives', async () => {
    mockApi(routes);
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await change(screen.getByLabelText('Search'), 'c-449');
    expect(screen.queryAllByTestId('contact-row')).toHaveLength(0);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('c-449')).toBeTruthy();
    // The cards stayed on screen meanwhile: they count every contact whatever the search.
    expect(within(screen.getByTestId('summary-Total')).getByText('450')).toBeTruthy();
  });

  it('goes back to the last page when the list shrank under the user', async () => {
    let pending = Array.from({ length: 51 }, (_, i) => contact(i + 1, { status: 'pending' }));
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => pending),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/mark-purchased': () => {
        pending = pending.map((c) => (c.id === 51 ? { ...c, status: 'purchased' as const } : c));
        return { json: { success: true, message: 'Contact marked as purchased' } };
      },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await choose('Status', 'Pending');
    await click(pageButton('Page 2'));
    expect(await screen.findByText('Showing 51 to 51 of 51 results')).toBeTruthy();
    await click(within(rows()[0]!).getByRole('button', { name: 'Mark Purchased' }));
    await click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark Purchased' }));
    expect(await screen.findByText('Showing 1 to 50 of 50 results')).toBeTruthy();
    expect(rows()).toHaveLength(50);
  });
});

describe('/sms-contacts contents and actions (spec sections 2, 4, 8)', () => {
  const few = [
    contact(1, { status: 'pending' }),
    contact(2, { status: 'purchased' }),
    contact(3, { status: 'skipped_duplicate', opted_out: true }),
    contact(4, { status: 'sent' }),
  ];

  it('shows the cards over every contact, not the page: beyond the newest 5,000 too', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': {
        json: {
          items: few,
          total: 50_000,
          page: 1,
          pageSize: 50,
          summary: { total: 50_000, pending: 20_001, purchased: 9_999, sent: 15_000, tests: 0 },
        },
      },
      'GET /api/sms-webhook-integrations': { json: [] },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    expect(within(screen.getByTestId('summary-Total')).getByText('50000')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Pending')).getByText('20001')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Purchased')).getByText('9999')).toBeTruthy();
    expect(within(screen.getByTestId('summary-SMS Sent')).getByText('15000')).toBeTruthy();
    expect(screen.getByText('Showing 1 to 50 of 50000 results')).toBeTruthy();
    expect(pageButtons()).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts Total, Pending, Purchased and SMS Sent, labels skipped_duplicate and marks opted-out phones', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => few),
      'GET /api/sms-webhook-integrations': { json: [] },
    });
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

  it('badges the stored test deliveries only: the flag decides, not the reserved phone', async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => [
        contact(1, { phone: '+14155550100', test: true }),
        contact(2, { phone: '+14155550100', test: false }),
        contact(3),
      ]),
      'GET /api/sms-webhook-integrations': { json: [] },
    });
    renderWithProviders(<SmsContactsPage />);
    const rows = await screen.findAllByTestId('contact-row');
    expect(rows.map((r) => within(r).queryAllByTestId('test-badge').length)).toEqual([1, 0, 0]);
    expect(rows.map((r) => within(r).queryByTestId('never-texted')?.textContent ?? null)).toEqual(['Never texted: a test delivery', null, null]);
    // Three rows, two contacts counted: the Total card says what it left out.
    const total = screen.getByTestId('summary-Total');
    expect(within(total).getByText('2')).toBeTruthy();
    expect(within(total).getByText('1 test delivery listed, not counted')).toBeTruthy();
  });

  it("'Mark Purchased' asks first, posts the contact's id, then refetches", async () => {
    let rows = few;
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => rows),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/mark-purchased': () => {
        rows = few.map((c) => (c.id === 1 ? { ...c, status: 'purchased' as const } : c));
        return { json: { success: true, message: 'Contact marked as purchased' } };
      },
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
    expect(within(screen.getByTestId('summary-Purchased')).getByText('2')).toBeTruthy();
  });

  it("shows 'Failed to mark contact as purchased: {message}'", async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => few),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/mark-purchased': { status: 404, json: { error: 'SMS contact not found' } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getAllByRole('button', { name: 'Mark Purchased' })[0]!);
    await click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark Purchased' }));
    expect(await screen.findByText('Failed to mark contact as purchased: SMS contact not found')).toBeTruthy();
  });

  it("'Clear All Contacts' asks first: Cancel clears nothing, the dialog's button clears all", async () => {
    let rows: readonly SmsContact[] = few;
    const api = mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => rows),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/clear': () => {
        rows = [];
        return { json: { success: true, message: 'All SMS contacts cleared', deleted: 4 } };
      },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    let dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/This deletes all \d+ SMS contacts and stops their reminders/)).toBeTruthy();
    await click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/sms-contacts/clear')).toHaveLength(0);
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    dialog = within(await screen.findByRole('dialog'));
    await click(dialog.getByRole('button', { name: 'Clear All Contacts' }));
    expect(await screen.findByText('All SMS contacts cleared')).toBeTruthy();
    expect(api.callsTo('POST', '/api/sms-contacts/clear')).toHaveLength(1);
    expect(await screen.findByText('No SMS contacts yet')).toBeTruthy();
    expect(within(screen.getByTestId('summary-Total')).getByText('0')).toBeTruthy();
  });

  it('a production server refusing a plain user (403): the spec toast, and a note under the button saying only admins can', async () => {
    const reason = 'Admin access required: on this server only administrators can clear all SMS contacts';
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => few),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/clear': { status: 403, json: { error: reason } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    expect(screen.queryByTestId('admin-only-note')).toBeNull();
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    await click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Contacts' }));
    expect(await screen.findByText(`Failed to clear contacts: ${reason}`)).toBeTruthy();
    expect((await screen.findByTestId('admin-only-note')).textContent).toBe(reason);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getAllByTestId('contact-row')).toHaveLength(few.length);
  });

  it("shows 'Failed to clear contacts: {message}'", async () => {
    mockApi({
      ...signedIn,
      'GET /api/sms-contacts?': contactsServer(() => few),
      'GET /api/sms-webhook-integrations': { json: [] },
      'POST /api/sms-contacts/clear': { status: 500, json: { error: 'Internal server error' } },
    });
    renderWithProviders(<SmsContactsPage />);
    await screen.findAllByTestId('contact-row');
    await click(screen.getByRole('button', { name: 'Clear All Contacts' }));
    await click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Clear All Contacts' }));
    expect(await screen.findByText('Failed to clear contacts: Internal server error')).toBeTruthy();
    expect(screen.queryByTestId('admin-only-note')).toBeNull();
  });
});
