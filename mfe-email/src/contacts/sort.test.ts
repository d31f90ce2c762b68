import { DEFAULT_CONTACT_SORT, nextSort, sortParam, type ContactSort } from './sort';

describe('contact sort rules (spec §2 /contacts)', () => {
  it('defaults to created_at descending', () => {
    expect(DEFAULT_CONTACT_SORT).toEqual({ field: 'created_at', dir: 'desc' });
    expect(sortParam(DEFAULT_CONTACT_SORT)).toBe('-created_at');
  });

  it('clicking the active column toggles its direction', () => {
    let sort: ContactSort = DEFAULT_CONTACT_SORT;
    sort = nextSort(sort, 'created_at');
    expect(sort).toEqual({ field: 'created_at', dir: 'asc' });
    sort = nextSort(sort, 'created_at');
    expect(sort).toEqual({ field: 'created_at', dir: 'desc' });
    expect(nextSort({ field: 'email', dir: 'asc' }, 'email')).toEqual({ field: 'email', dir: 'desc' });
  });

  it('a newly chosen date column starts descending', () => {
    for (const field of ['created_at', 'remind_at', 'purchased_at'] as const) {
      expect(nextSort({ field: 'email', dir: 'asc' }, field)).toEqual({ field, dir: 'desc' });
    }
    expect(nextSort(DEFAULT_CONTACT_SORT, 'remind_at')).toEqual({ field: 'remind_at', dir: 'desc' });
  });

  it('any other newly chosen column starts ascending', () => {
    for (const field of ['contact_id', 'email', 'status'] as const) {
      expect(nextSort(DEFAULT_CONTACT_SORT, field)).toEqual({ field, dir: 'asc' });
      expect(nextSort({ field: 'purchased_at', dir: 'asc' }, field)).toEqual({ field, dir: 'asc' });
    }
  });

  it("is sent to svc-email as 'field' (ascending) or '-field' (descending)", () => {
    expect(sortParam({ field: 'contact_id', dir: 'asc' })).toBe('contact_id');
    expect(sortParam({ field: 'purchased_at', dir: 'desc' })).toBe('-purchased_at');
  });
});
