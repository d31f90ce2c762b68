import type { Cart } from '@act/contracts/src/cart';
import { cartBlockHtml, findCartBlocks } from '@act/contracts/src/cart-block';
import { SAMPLE_CART } from '@act/contracts/src/message-variables';
import { composeEmail } from '../live-sending/compose';
import { sanitizeTemplateHtml } from '../templates/sanitize';

const links = { publicUrl: 'https://carts.example.com', secret: 'cart-block-test', mailto: null };
const XSS = '<img src=x onerror=alert(1)>';
const item = (i: number, over: Partial<Cart['items'][number]> = {}): Cart['items'][number] => ({
  ...SAMPLE_CART.items[0]!,
  name: `Item ${i}`,
  variant: i % 2 ? `Size ${i}` : null,
  quantity: i,
  unit_price: 1000 * i,
  line_total: 1000 * i * i,
  image_url: i === 2 ? null : `https://cdn.example.com/p/${i}.jpg`,
  product_url: `https://shop.example.com/p/${i}`,
  ...over,
});
const cart = (items: Cart['items'], over: Partial<Cart> = {}): Cart => ({ ...SAMPLE_CART, items, total: 123456, currency: 'EUR', ...over });

async function compose(html: string, c: Cart | null, recoveryUrl = 'https://shop.example.com/discount/SAVE10?redirect=%2Fc%2F1') {
  return (await composeEmail({ subject: 'x', from_name: 'Shop', html_content: html }, {
    to: 'ann@example.com', firstName: 'Ann', cart: c, recoveryUrl, fromAddress: 'shop@example.com', links,
  })).html;
}

describe('the Cart block in a sent email', () => {
  it('survives the sanitiser as the editor writes it', () => {
    const clean = sanitizeTemplateHtml(`<p>Hi</p>${cartBlockHtml(4)}<p>Bye</p><div data-items="2" onclick="x()">no block</div>`);
    expect(findCartBlocks(clean).map((b) => b.items)).toEqual([4]);
    expect(clean).not.toContain('onclick');
  });

  it('renders one row per item up to N (image, name, variant, quantity, price), "and K more", the total and the button', async () => {
    const html = await compose(`<h1>Hi {{firstName}}</h1>${cartBlockHtml(3)}<p>See you soon</p>`, cart([1, 2, 3, 4, 5].map((i) => item(i)), { more_items: 2 }));
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<h1>Hi Ann</h1>');
    expect(html).toContain('See you soon');
    for (const i of [1, 2, 3]) expect(html).toContain(`<strong>Item ${i}</strong>`);
    expect(html).not.toContain('Item 4');
    expect(html).toContain('<span style="color:#555555">Size 1</span>');
    expect(html).toContain('Qty 3</span> &middot; €90.00');
    // Items 1 and 3 have pictures, 2 has none.
    expect(html.match(/<img\s/g)).toHaveLength(2);
    expect(html).toContain('src="https://cdn.example.com/p/3.jpg"');
    expect(html).toContain('and 4 more');
    expect(html).toContain('Total: €1,234.56');
    expect(html).toContain('href="https://shop.example.com/discount/SAVE10?redirect=%2Fc%2F1"');
    expect(html).toContain('Complete Your Purchase');
    expect(html).not.toContain('%%ACT-CART');
    expect(html).not.toContain('data-cart-block');
  });

  it('a name, variant or picture link written as markup stays text', async () => {
    const html = await compose(cartBlockHtml(3), cart([item(1, { name: XSS, variant: `"><script>alert(1)</script>` })]));
    expect(html).not.toMatch(/<img src=x|<script>alert/);
    expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(html).toContain('alt="&lt;img src=x onerror=alert(1)&gt;"');
  });

  it('without a cart: the button alone; a template without the block is the HTML as written', async () => {
    const html = await compose(`<p>Hi</p>${cartBlockHtml(3)}`, null);
    expect(html).toContain('Complete Your Purchase');
    expect(html).not.toContain('Total:');
    expect(await compose('<p>Hi {{firstName}}</p>', cart([item(1)]))).toBe('<p>Hi Ann</p>');
  });

  it('compiles a layout once: the second email of a layout takes well under a millisecond or two', async () => {
    const tpl = `<p>Hi {{firstName}}</p>${cartBlockHtml(3)}`;
    const c = cart([item(1), item(3)]);
    await compose(tpl, c);
    const start = process.hrtime.bigint();
    for (let i = 0; i < 50; i++) await compose(tpl, { ...c, items: [item(1, { name: `Other ${i}` }), item(3)] });
    const perEmailMs = Number(process.hrtime.bigint() - start) / 1e6 / 50;
    expect(perEmailMs).toBeLessThan(5);
  });
});
