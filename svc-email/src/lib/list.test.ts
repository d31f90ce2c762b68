import { parseListQuery, type ListOptions } from './list';

const opts: ListOptions = { sortable: ['created_at', 'email'], nullable: [], defaultSort: { field: 'created_at', dir: -1 } };

describe('parseListQuery', () => {
  it('defaults to the whole list in the default order', () => {
    expect(parseListQuery({}, opts)).toEqual({ page: null, pageSize: 25, sort: { field: 'created_at', dir: -1 } });
  });

  it('reads page, pageSize and the three sort spellings', () => {
    expect(parseListQuery({ page: '2', pageSize: '50', sort: 'email' }, opts)).toEqual({ page: 2, pageSize: 50, sort: { field: 'email', dir: 1 } });
    expect(parseListQuery({ sort: '-email' }, opts).sort).toEqual({ field: 'email', dir: -1 });
    expect(parseListQuery({ sort: 'email:desc' }, opts).sort).toEqual({ field: 'email', dir: -1 });
    expect(parseListQuery({ sort: 'email:asc' }, opts).sort).toEqual({ field: 'email', dir: 1 });
  });

  it.each([
    [{ page: '0' }, 'page must be a positive integer'],
    [{ page: '-1' }, 'page must be a positive integer'],
    [{ page: '1.5' }, 'page must be a positive integer'],
    [{ page: ['1', '2'] }, 'page must be a positive integer'],
    [{ page: '2000000' }, 'page must be at most 1000000'],
    [{ pageSize: '1001' }, 'pageSize must be at most 1000'],
    [{ sort: 'password' }, 'sort must be one of: created_at, email'],
    [{ sort: ['email'] }, 'sort must be a field name'],
  ])('refuses %j', (query, message) => {
    expect(() => parseListQuery(query, opts)).toThrow(message);
  });
});
