import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi, renderWithProviders } from '@act/ui-kit/src/testing';
import { contactsPageKey, type ContactsQuery } from '../shared/keys';
import { DEFAULT_INTEGRATION, SHOP_INTEGRATION, SIGNED_IN, contact, paged } from '../shared/testing';
import ContactsPage from './ContactsPage';

const FIRST: ContactsQuery = { page: 1, pageSize: 25, sort: '-created_at' };
const key = (q: Partial<ContactsQuery> = {}) => `GET ${contactsPageKey({ ...FIRST, ...q })}`;

const ROWS = [
  contact({ id: 1, contact_id: 'a-1', status: 'pending', integration_id: 2 }),
  contact({ id: 2, contact_id: 'a-2', status: 'sent' }),
  contact({ id: 3, contact_id: 'a-3', status: 'purchased', purchased_at: '2026-03-01T12:00:00.000Z' }),
];

function api(extra = {}) {
  return mockApi({
    ...SIGNED_IN,
    'GET /api/webhook-integrations': { json: [DEFAULT_INTEGRATION, SHOP_INTEGRATION] },
    [key()]: paged(ROWS, 3),
    ...extra,
  });
}

const table = () => screen.getByRole('table', { name: 'Contacts' });
const dataRows = () => within(table()).getAllByRole('row').slice(1);

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

describe('/contacts (spec §2, §8, §9)', () => {
  it("'Loading contacts...', then the rows, the count line, badges and Mark as Purchased where not purchased", async () => {
    api();
    renderWithProviders(<ContactsPage />);
    expect(screen.getByRole('heading', { name: 'Contacts' })).toBeTruthy();
    expect(screen.getByText('Loading contacts...')).toBeTruthy();
    expect(await screen.findByText('Showing 3 contact(s)')).toBeTruthy();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['ID', 'Email', 'Created At', 'Remind At', 'Purchased At', 'Status', 'Actions']);
    const rows = dataRows();
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['a-1', 'a-2', 'a-3']);
    expect(rows[0].textContent).toContain('Summer Shop');
    expect(rows[1].textContent).toContain('No Integration');
    expect(rows.map((r) => r.querySelector('[data-status]')?.textContent)).toEqual(['Pending', 'Sent', 'Purchased']);
    expect(rows.map((r) => within(r).queryByRole('button', { name: 'Mark as Purchased' }) !== null)).toEqual([
      true,
      true,
      false,
    ]);
    expect(screen.getByText('Showing 1 to 3 of 3 results')).toBeTruthy();
  });

  it('an address on the unsubscribe list reads Unsubscribed whatever its lifecycle status, unless it bought', async () => {
    api({
      [key()]: paged(
        [
          contact({ id: 1, contact_id: 'u-1', status: 'pending', unsubscribed: true }),
          contact({ id: 2, contact_id: 'u-2', status: 'sent', unsubscribed: true }),
          contact({ id: 3, contact_id: 'u-3', status: 'purchased', unsubscribed: true, purchased_at: '2026-03-01T12:00:00.000Z' }),
        ],
        3,
      ),
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 3 contact(s)');
    expect(dataRows().map((r) => r.querySelector('[data-status]')?.textContent)).toEqual(['Unsubscribed', 'Unsubscribed', 'Purchased']);
  });

  it('a contact whose reminder is held reads Held with the reason, never Sent; a test delivery is held too', async () => {
    api({
      [key()]: paged(
        [
          contact({ id: 4, contact_id: 'h-1', status: 'sent', reminders_held: 'The shopper declined promotional messages at checkout' }),
          contact({ id: 5, contact_id: 'h-2', status: 'sent', test: true }),
          contact({ id: 6, contact_id: 'h-3', status: 'sent', simulated: true }),
          contact({ id: 7, contact_id: 'h-4', status: 'purchased', reminders_held: 'The shopper declined promotional messages at checkout', purchased_at: '2026-03-01T12:00:00.000Z' }),
        ],
        4,
      ),
    });
    renderWithProviders(<ContactsPage />);
    expect(await screen.findByText('Showing 4 contact(s)')).toBeTruthy();
    expect(dataRows().map((r) => [r.querySelector('[data-status]')?.textContent, r.querySelector('[data-testid="held-reason"]')?.textContent ?? null])).toEqual([
      ['Held', 'The shopper declined promotional messages at checkout'],
      ['Held', 'test delivery'],
      ['Sent (simulated)', null],
      ['Purchased', null],
    ]);
  });

  it("'No contacts found.' for an empty list", async () => {
    api({ [key()]: paged([], 0) });
    renderWithProviders(<ContactsPage />);
    expect(await screen.findByText('No contacts found.')).toBeTruthy();
    expect(screen.getByText('Showing 0 contact(s)')).toBeTruthy();
  });

  it('header clicks follow the sort rules and ask the server for that order', async () => {
    const calls = api({
      [key({ sort: 'email' })]: paged(ROWS, 3),
      [key({ sort: '-email' })]: paged(ROWS, 3),
      [key({ sort: '-remind_at' })]: paged(ROWS, 3),
      [key({ sort: 'created_at' })]: paged(ROWS, 3),
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 3 contact(s)');
    const header = (name: string) => within(table()).getByRole('button', { name });
    expect(screen.getByRole('columnheader', { name: /Created At/ }).getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(header('Email'));
    await waitFor(() => expect(calls.callsTo('GET', contactsPageKey({ ...FIRST, sort: 'email' }))).toHaveLength(1));
    expect(screen.getByRole('columnheader', { name: /Email/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Email'));
    await waitFor(() => expect(calls.callsTo('GET', contactsPageKey({ ...FIRST, sort: '-email' }))).toHaveLength(1));
    fireEvent.click(header('Remind At'));
    await waitFor(() =>
      expect(calls.callsTo('GET', contactsPageKey({ ...FIRST, sort: '-remind_at' }))).toHaveLength(1),
    );
    expect(screen.getByRole('columnheader', { name: /Remind At/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('filters: statuses, integrations by name, and back to page 1', async () => {
    const calls = api({
      [key()]: paged(ROWS, 60),
      [key({ page: 2 })]: paged(ROWS, 60, 2),
      [key({ status: 'pending' })]: paged([ROWS[0]], 1),
      [key({ status: 'pending', integration: 'none' })]: paged([], 0),
      [key({ status: 'pending', integration: 2 })]: paged([ROWS[0]], 1),
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 60 contact(s)');
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.callsTo('GET', contactsPageKey({ ...FIRST, page: 2 }))).toHaveLength(1));

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    // The spec's four, and Unsubscribed (a reminder suppressed by the unsubscribe list).
    ).toEqual(['All Statuses', 'Pending', 'Sent', 'Purchased', 'Unsubscribed']);
    fireEvent.click(screen.getByRole('option', { name: 'Pending' }));
    expect(await screen.findByText('Showing 1 contact(s)')).toBeTruthy();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Integration' }));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Integrations', 'No Integration', 'Default Integration', 'Summer Shop']);
    fireEvent.click(screen.getByRole('option', { name: 'No Integration' }));
    expect(await screen.findByText('No contacts found.')).toBeTruthy();
    await choose('Integration', 'Summer Shop');
    expect(await screen.findByText('Showing 1 contact(s)')).toBeTruthy();
  });

  it('a page-size change returns to page 1', async () => {
    const calls = api({
      [key()]: paged(ROWS, 120),
      [key({ page: 3 })]: paged(ROWS, 120, 3),
      [key({ pageSize: 50 })]: paged(ROWS, 120, 1, 50),
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 120 contact(s)');
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 51 to 75 of 120 results')).toBeTruthy();
    await choose('Rows per page', '50');
    expect(await screen.findByText('Showing 1 to 50 of 120 results')).toBeTruthy();
    expect(calls.callsTo('GET', contactsPageKey({ ...FIRST, pageSize: 50 }))).toHaveLength(1);
  });

  it('Mark as Purchased: the call, the toast and the list reloaded', async () => {
    const calls = api({
      [key()]: [paged(ROWS, 3), paged([{ ...ROWS[0], status: 'purchased' }, ROWS[1], ROWS[2]], 3)],
      'POST /api/contacts/mark-purchased': { json: { success: true, contact: { ...ROWS[0], status: 'purchased' } } },
    });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 3 contact(s)');
    fireEvent.click(within(dataRows()[0]).getByRole('button', { name: 'Mark as Purchased' }));
    expect((await screen.findByTestId('toast')).textContent).toContain('Contact marked as purchased');
    expect(calls.callsTo('POST', '/api/contacts/mark-purchased')[0].body).toEqual({ contact_id: 1 });
    await waitFor(() => expect(within(dataRows()[0]).queryByRole('button', { name: 'Mark as Purchased' })).toBeNull());
  });

  it("Mark as Purchased failure: 'Failed to mark contact as purchased:' and the message", async () => {
    api({ 'POST /api/contacts/mark-purchased': { status: 404, json: { error: 'Contact not found' } } });
    renderWithProviders(<ContactsPage />);
    await screen.findByText('Showing 3 contact(s)');
    fireEvent.click(within(dataRows()[1]).getByRole('button', { name: 'Mark as Purchased' }));
    expect((await screen.findByTestId('toast')).textContent).toContain(
      'Failed to mark contact as purchased: Contact not found',
    );
  });

  it('a failed load shows the error card', async () => {
    api({ [key()]: { status: 500, json: { error: 'db down' } } });
    renderWithProviders(<ContactsPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('db down');
  });
});
