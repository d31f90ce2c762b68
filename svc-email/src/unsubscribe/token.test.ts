import { signUnsubscribeToken, unsubscribeSecret, verifyUnsubscribeToken } from './token';
import { listUnsubscribeHeaders } from './links';

describe('unsubscribe tokens and headers', () => {
  const secret = 's3cret';

  it('round-trips the lower-cased address and refuses forgeries', () => {
    const token = signUnsubscribeToken('  Jane.Doe@Example.COM ', secret);
    expect(verifyUnsubscribeToken(token, secret)).toBe('jane.doe@example.com');
    expect(verifyUnsubscribeToken(token, 'other')).toBeNull();
    const [, sig] = token.split('.');
    const forged = `${Buffer.from('victim@example.com').toString('base64url')}.${sig}`;
    expect(verifyUnsubscribeToken(forged, secret)).toBeNull();
    for (const junk of [undefined, '', '.', 'abc', ['a', 'b'], 'x'.repeat(2000), `${token}x`])
      expect(verifyUnsubscribeToken(junk, secret)).toBeNull();
  });

  it('derives its secret from IDENTITY_SECRET unless UNSUBSCRIBE_SECRET is set', () => {
    expect(unsubscribeSecret('explicit', 'id')).toBe('explicit');
    expect(unsubscribeSecret(undefined, 'id')).not.toBe('id');
    expect(unsubscribeSecret(undefined, 'id')).toBe(unsubscribeSecret(undefined, 'id'));
  });

  it('builds RFC 8058 headers: https link, mailto only when configured', () => {
    const h = listUnsubscribeHeaders('a@b.co', { publicUrl: 'https://carts.example.com/', secret, mailto: null });
    expect(h['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(h['List-Unsubscribe']).toMatch(
      /^<https:\/\/carts\.example\.com\/api\/unsubscribe\/one-click\?token=[^>]+>$/,
    );
    const token = decodeURIComponent(/token=([^>]+)>/.exec(h['List-Unsubscribe']!)![1]!);
    expect(verifyUnsubscribeToken(token, secret)).toBe('a@b.co');
    const m = listUnsubscribeHeaders('a@b.co', {
      publicUrl: 'https://carts.example.com',
      secret,
      mailto: 'unsubscribe@carts.example.com',
    });
    expect(m['List-Unsubscribe']).toMatch(
      /^<https:[^>]+>, <mailto:unsubscribe@carts\.example\.com\?subject=unsubscribe>$/,
    );
  });
});
