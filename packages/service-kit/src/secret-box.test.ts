import { createSecretBox } from './secret-box';

describe('secret box', () => {
  it('seals so that the stored text does not contain the secret, and opens with the same key only', () => {
    const box = createSecretBox('key-one');
    const sealed = box.seal('whsec_abc123');
    expect(sealed).not.toContain('whsec_abc123');
    expect(sealed).toMatch(/^v1:/);
    expect(box.open(sealed)).toBe('whsec_abc123');
    expect(box.seal('whsec_abc123')).not.toBe(sealed);
    expect(createSecretBox('key-two').open(sealed)).toBeNull();
    expect(box.open(sealed.slice(0, -2) + 'AA')).toBeNull();
    expect(box.open('plain text')).toBeNull();
  });
});
