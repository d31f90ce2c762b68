/**
 * The contacts table's sort rules (section 2), as pure functions:
 * - default: created_at descending;
 * - clicking the active column toggles its direction;
 * - a newly chosen date column starts descending, any other column ascending;
 * - null values sort last (in either direction).
 * The ordering itself, nulls last included, is svc-email's (`sort=field` / `sort=-field`), because the table
 * pages on the server (see ContactsPage).
 */

export type ContactSortField = 'contact_id' | 'email' | 'created_at' | 'remind_at' | 'purchased_at' | 'status';
export type SortDirection = 'asc' | 'desc';

export interface ContactSort {
  field: ContactSortField;
  dir: SortDirection;
}

export const DATE_FIELDS: ReadonlySet<ContactSortField> = new Set(['created_at', 'remind_at', 'purchased_at']);

export const DEFAULT_CONTACT_SORT: ContactSort = { field: 'created_at', dir: 'desc' };

/** The sort after a click on `field`'s header. */
export function nextSort(current: ContactSort, field: ContactSortField): ContactSort {
  if (current.field === field) return { field, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { field, dir: DATE_FIELDS.has(field) ? 'desc' : 'asc' };
}

/** svc-email's `sort` query value: `field` ascending, `-field` descending. */
export function sortParam(sort: ContactSort): string {
  return sort.dir === 'desc' ? `-${sort.field}` : sort.field;
}
