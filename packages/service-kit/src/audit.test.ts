// The change summary every service's audit records carry: computed here once, for every feature.
import { auditDiff, redact } from './audit';

describe('auditDiff', () => {
  it('keeps only the fields that moved, each before and after; bookkeeping fields never count', () => {
    const before = { id: 3, name: 'Old', active: true, tags: ['a'], updated_at: new Date('2026-01-01') };
    const after = { id: 3, name: 'New', active: true, tags: ['a', 'b'], updated_at: new Date('2026-02-01') };
    expect(auditDiff(before, after)).toEqual({ before: { name: 'Old', tags: ['a'] }, after: { name: 'New', tags: ['a', 'b'] } });
  });

  it('is null when nothing changed (the call leaves no record)', () => {
    expect(auditDiff({ a: 1, b: null, updated_at: 1 }, { a: 1, b: undefined, updated_at: 2 })).toBeNull();
    expect(auditDiff(null, null)).toBeNull();
  });

  it('a deletion keeps the state before, a creation the state after; dates as ISO text', () => {
    const at = new Date('2026-03-04T05:06:07.000Z');
    expect(auditDiff({ id: 1, name: 'Gone', created_at: at, _id: 'x' }, null)).toEqual({ before: { id: 1, name: 'Gone', created_at: at.toISOString() }, after: null });
    expect(auditDiff(null, { id: 2, name: 'Made' })).toEqual({ before: null, after: { id: 2, name: 'Made' } });
  });

  it('never shows a secret: whether one was set, set anew, replaced or removed', () => {
    expect(auditDiff({ api_key: null }, { api_key: 're_new_value' })).toEqual({ before: { api_key: '[not set]' }, after: { api_key: '[set]' } });
    expect(auditDiff({ api_key: 'sealed-1' }, { api_key: 'sealed-2' })).toEqual({ before: { api_key: '[set]' }, after: { api_key: '[changed]' } });
    expect(auditDiff({ webhook_secret: 'sealed' }, { webhook_secret: null })).toEqual({ before: { webhook_secret: '[set]' }, after: { webhook_secret: '[cleared]' } });
    // A secret the answers do not show, named by the route: a rotation is a change even when nothing else moved.
    expect(auditDiff({}, {}, { secrets: { password: { before: true, after: true } } })).toEqual({ before: { password: '[set]' }, after: { password: '[changed]' } });
    expect(auditDiff({}, {}, { secrets: { token: { before: false, after: false } } })).toBeNull();
    const nested = auditDiff({ cfg: { token: 'a1' } }, { cfg: { token: 'b2' } });
    expect(JSON.stringify(nested)).not.toMatch(/a1|b2/);
  });

  it('compares only the fields asked for, and leaves out the ones ignored', () => {
    expect(auditDiff({ a: 1, b: 1, c: 1 }, { a: 2, b: 2, c: 2 }, { fields: ['a', 'b'], ignore: ['b'] })).toEqual({ before: { a: 1 }, after: { a: 2 } });
  });
});

describe('redact', () => {
  it('keeps the markers and flags a secret-named field holds, replaces its values', () => {
    expect(redact({ has_secret: false, apiKey: '[changed]', password: 'hunter22', token: '' })).toEqual({ has_secret: false, apiKey: '[changed]', password: '[set]', token: '[cleared]' });
  });
});
