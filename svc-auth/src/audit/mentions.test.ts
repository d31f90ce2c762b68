// The keys an erase finds audit records by: hashed addresses and numbers, however the change wrote them.
import { mentionKeys, personKeys } from './mentions';

describe('mentionKeys', () => {
  it('finds an address in any field and case, and a number however it is written', () => {
    const change = { before: { email: 'Pat@Example.com', phone: '+1 (415) 555-0177' }, after: { note: 'call 4155550177 or mail pat@example.com' } };
    const keys = mentionKeys(change);
    for (const k of personKeys('pat@example.com', '415.555.0177')) expect(keys).toContain(k);
    expect(keys.every((k) => /^[ep]:[0-9a-f]{32}$/.test(k))).toBe(true);
    expect(JSON.stringify(keys)).not.toContain('pat@');
  });

  it('does not take an address that merely ends with the person\'s for theirs', () => {
    const [key] = personKeys('pat@example.com', null);
    expect(mentionKeys({ after: { email: 'xpat@example.com' } })).not.toContain(key);
  });

  it('finds a number inside a longer run of digits (a country code, a neighbouring number)', () => {
    const [key] = personKeys(null, '4155550177');
    expect(mentionKeys({ after: { to: '0014155550177' } })).toContain(key);
    expect(mentionKeys({ after: { phones: '4155550177 4155550188' } })).toContain(key);
  });

  it('is empty for a change that names nobody', () => {
    expect(mentionKeys(null)).toEqual([]);
    expect(mentionKeys({ before: { active: true }, after: { active: false } })).toEqual([]);
  });
});
