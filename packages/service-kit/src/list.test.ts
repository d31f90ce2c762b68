import { escapeRegex, parseListQuery, parseSearch, substringFilter, type ListOptions } from './list';

const opts: ListOptions = {
  sortable: ['created_at', 'email'],
  nullable: [],
  defaultSort: { field: 'created_at', dir: -1 },
};

describe('parseListQuery', () => {
  it('defaults to the whole list in the default order', () => {
    expect(parseListQuery({}, opts)).toEqual({ page: null, pageSize: 25, sort: { field: 'created_at', dir: -1 } });
  });

  it('reads page, pageSize and the three sort spellings', () => {
    expect(parseListQuery({ page: '2', pageSize: '50', sort: 'email' }, opts)).toEqual({
      page: 2,
      pageSize: 50,
      sort: { field: 'email', dir: 1 },
    });
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

describe('SMS-side page sizes', () => {
  const sms: ListOptions = { ...opts, defaultPageSize: 50, pageSizes: [25, 50, 100, 250, 500], tieBreak: 'id' };
  it('defaults to the given size and accepts only the listed ones', () => {
    expect(parseListQuery({ page: '1' }, sms)).toEqual({
      page: 1,
      pageSize: 50,
      sort: { field: 'created_at', dir: -1 },
    });
    expect(parseListQuery({ page: '3', pageSize: '500' }, sms).pageSize).toBe(500);
    expect(() => parseListQuery({ pageSize: '30' }, sms)).toThrow('pageSize must be one of: 25, 50, 100, 250, 500');
    expect(() => parseListQuery({ pageSize: 'x' }, sms)).toThrow('pageSize must be a positive integer');
  });
});

describe('search', () => {
  it('reads one trimmed text; blank is no search', () => {
    expect(parseSearch(undefined)).toBeNull();
    expect(parseSearch('   ')).toBeNull();
    expect(parseSearch('  +1555 ')).toBe('+1555');
  });

  it.each([
    [['a', 'b'], 'search must be a single text'],
    [{ $ne: '' }, 'search must be a single text'],
    ['x'.repeat(201), 'search must be at most 200 characters'],
  ])('refuses %j', (raw, message) => {
    expect(() => parseSearch(raw)).toThrow(message);
  });

  it('matches the text itself, never as a pattern', () => {
    const texts = ['a.c', '(x)', '[1]', 'a+b*', '^$', 'a|b', 'back\\slash', '{2}', '?', '/', '-'];
    for (const t of texts) {
      const re = new RegExp(escapeRegex(t));
      expect(re.test(`before ${t} after`)).toBe(true);
    }
    expect(new RegExp(escapeRegex('a.c')).test('abc')).toBe(false);
    expect(new RegExp(escapeRegex('a|b')).test('a')).toBe(false);
  });

  it('builds an $or of case-insensitive patterns over the fields', () => {
    const f = substringFilter('$where', ['phone', 'email']) as { $or: Record<string, RegExp>[] };
    expect(f.$or.map((c) => Object.keys(c)[0])).toEqual(['phone', 'email']);
    const re = f.$or[0]!.phone!;
    expect(re.flags).toBe('i');
    expect(re.test('x $WHERE y')).toBe(true);
    expect(re.test('where')).toBe(false);
  });
});
