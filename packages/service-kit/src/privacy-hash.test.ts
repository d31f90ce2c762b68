import {
  emailSuppressionKeys,
  erasedContactId,
  erasedEmail,
  erasedPhone,
  isErasedEmail,
  isErasedPhone,
  phoneSuppressionKeys,
  scrubText,
} from './privacy-hash';

const withSalt = <T>(salt: string | undefined, fn: () => T): T => {
  const before = process.env.PRIVACY_HASH_SALT;
  if (salt === undefined) delete process.env.PRIVACY_HASH_SALT;
  else process.env.PRIVACY_HASH_SALT = salt;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.PRIVACY_HASH_SALT;
    else process.env.PRIVACY_HASH_SALT = before;
  }
};

describe('the salted hash of an erased person', () => {
  it('is the same for the same address or number however written, and of a fixed form', () => {
    withSalt('salt-a', () => {
      expect(erasedEmail(' Pat@Example.COM ')).toBe(erasedEmail('pat@example.com'));
      expect(erasedEmail('pat@example.com')).toMatch(/^erased-[0-9a-f]{32}@erased\.invalid$/);
      expect(erasedPhone('+1 (415) 555-0142')).toBe(erasedPhone('+14155550142'));
      expect(erasedPhone('4155550142')).toBe(erasedPhone('+14155550142'));
      expect(erasedPhone('+14155550142')).toMatch(/^erased-[0-9a-f]{32}$/);
      expect(erasedEmail('pat@example.com')).not.toBe(erasedEmail('pam@example.com'));
      expect(isErasedEmail(erasedEmail('x@example.com'))).toBe(true);
      expect(isErasedPhone(erasedPhone('+14155550142'))).toBe(true);
      expect(erasedContactId('c-1')).toBe(erasedContactId(erasedContactId('c-1')));
    });
  });

  it('depends on the key: PRIVACY_HASH_SALT, else one derived from IDENTITY_SECRET', () => {
    const a = withSalt('salt-a', () => erasedEmail('pat@example.com'));
    const b = withSalt('salt-b', () => erasedEmail('pat@example.com'));
    const derived = withSalt(undefined, () => erasedEmail('pat@example.com'));
    expect(new Set([a, b, derived]).size).toBe(3);
  });

  it('is looked for next to the clear form by the suppression checks', () => {
    withSalt('salt-a', () => {
      expect(emailSuppressionKeys('Pat@Example.com')).toEqual(['pat@example.com', erasedEmail('pat@example.com')]);
      expect(phoneSuppressionKeys('+14155550142')).toEqual(['+14155550142', erasedPhone('+14155550142')]);
      // An erased contact's own phone is already the list's form.
      const erased = erasedPhone('+14155550142')!;
      expect(phoneSuppressionKeys(erased)).toEqual([erased]);
    });
  });

  it('replaces every mention of the person in a text, leaving JSON well-formed', () => {
    withSalt('salt-a', () => {
      const text = JSON.stringify({
        email: 'PAT@example.com',
        to: '+1 415-555-0142',
        raw: '4155550142',
        other: 'sam@example.com',
        near: 'xpat@example.com',
      });
      const out = scrubText(text, { emails: ['pat@example.com'], phones: ['+14155550142'] });
      expect(JSON.parse(out)).toEqual({
        email: erasedEmail('pat@example.com'),
        to: erasedPhone('+14155550142'),
        raw: erasedPhone('+14155550142'),
        other: 'sam@example.com',
        near: 'xpat@example.com',
      });
    });
  });
});
