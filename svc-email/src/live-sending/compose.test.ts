import { verifyUnsubscribeToken } from '../unsubscribe/token';
import { composeEmail } from './compose';

const links = { publicUrl: 'https://carts.example.com', secret: 'compose-test', mailto: null };

describe('composeEmail', () => {
  it('fills {{unsubscribeUrl}} (and {{unsubscribe_url}}) with the one-click link of the List-Unsubscribe header, {{checkout_url}} with the recovery link', async () => {
    const email = await composeEmail(
      {
        subject: 'For {{contactEmail}}',
        from_name: 'Shop',
        html_content:
          '<p><a href="{{checkout_url}}">Back to cart</a> <a href="{{unsubscribeUrl}}">Unsubscribe</a> <a href="{{ unsubscribe_url }}">Stop</a></p>',
      },
      { to: 'Ann@Example.com', recoveryUrl: 'https://shop.example/c/1', fromAddress: 'shop@example.com', links },
    );
    const hrefs = [...email.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const header = /^<([^>]+)>$/.exec(email.headers['List-Unsubscribe']!)![1]!;
    expect(hrefs).toEqual(['https://shop.example/c/1', header, header]);
    expect(header.startsWith('https://carts.example.com/api/unsubscribe/one-click?token=')).toBe(true);
    const token = decodeURIComponent(new URL(header).searchParams.get('token')!);
    expect(verifyUnsubscribeToken(token, 'compose-test')).toBe('ann@example.com');
    expect(email.html).not.toContain('{{');
  });

  it("writes the shopper's first name, escaped, in either spelling, and the template's fallback without one", async () => {
    const template = { subject: 'Hi {{firstName}}', from_name: 'Shop', html_content: '<p>Hi {first_name}, {{ firstName }}</p>' };
    const base = { to: 'ann@example.com', recoveryUrl: 'https://shop.example/c/1', fromAddress: 'shop@example.com', links };
    const named = await composeEmail(template, { ...base, firstName: 'Ann <b>' });
    expect(named.subject).toBe('Hi Ann <b>');
    expect(named.html).toBe('<p>Hi Ann &lt;b&gt;, Ann &lt;b&gt;</p>');
    expect((await composeEmail(template, { ...base, firstName: null })).html).toBe('<p>Hi there, there</p>');
  });
});
