import type { Cart } from './cart';
import { fillVariables, messageValues, renderMessage, SAMPLE_CART } from './message-variables';
import { renderTemplateVariables } from './email-api';
import { renderSmsTemplate } from './sms-api';

const cart = (over: Partial<Cart> = {}): Cart => ({ ...SAMPLE_CART, ...over });
const XSS = '<img src=x onerror=alert(1)>';

describe('message variables', () => {
  it('fills the cart, the code and the link, the total in the currency’s own digits', () => {
    const text = '{{firstName}}: {{itemCount}} items, {{firstItemName}}, {{cartTotal}}, code {{discountCode}} {{recoveryUrl}}';
    expect(
      renderMessage(text, { firstName: 'Ann', cart: cart(), discountCode: 'SAVE10', recoveryUrl: 'https://s.example/c?d=1' }, { escape: false }),
    ).toBe('Ann: 3 items, Classic Cotton Crew Neck T-Shirt, $129.99, code SAVE10 https://s.example/c?d=1');
    expect(messageValues({ cart: cart({ total: 1200, currency: 'JPY' }) }).cart_total).toBe('¥1,200');
    expect(messageValues({ cart: cart({ total: 12345, currency: 'KWD' }) }).cart_total).toMatch(/^KWD\s12\.345$/);
    // Lines beyond the kept 100 count one each: their quantities are unknown.
    expect(messageValues({ cart: cart({ more_items: 4 }) }).item_count).toBe('7');
    expect(messageValues({ cart: cart({ total: null }) }).cart_total).toBeNull();
  });

  it('takes the fallback written in the template, in either quoting, else the variable’s own', () => {
    expect(fillVariables('Hi {{firstName | "friend"}}!', {}, { escape: false })).toBe('Hi friend!');
    expect(fillVariables('Hi {{ first_name|\u201cfriend\u201d }}!', { first_name: '' }, { escape: false })).toBe('Hi friend!');
    expect(fillVariables("Hi {{firstName | 'you'}}!", { first_name: 'Bo' }, { escape: false })).toBe('Hi Bo!');
    // As an HTML editor writes the quotes; the fallback is HTML text, read back and escaped once.
    expect(fillVariables('<p>Hi {{firstName | &quot;R&amp;D&quot;}}</p>', {})).toBe('<p>Hi R&amp;D</p>');
    expect(fillVariables('Hi {{firstName}}, {first_name}', {}, { escape: false })).toBe('Hi there, there');
    expect(fillVariables('Code: {{discountCode}}.', {}, { escape: false })).toBe('Code: .');
    expect(fillVariables('{{discountCode | "none today"}}', {}, { escape: false })).toBe('none today');
    // Links stay as written in a test send unless told to vanish; unknown names always stay.
    expect(fillVariables('{{recoveryUrl}} {coupon}', {})).toBe('{{recoveryUrl}} {coupon}');
    expect(fillVariables('{{recoveryUrl}} {coupon}', {}, { keepMissing: false })).toBe(' {coupon}');
  });

  it('escapes every value and fallback filled into HTML: a name or item name is never markup', () => {
    const html = renderTemplateVariables('<p>Hi {{firstName}}, {{firstItemName}} {{firstName | "<b>x</b>"}}</p>', {
      firstName: XSS,
      firstItemName: `"><script>alert(1)</script>`,
    });
    expect(html).toBe(
      '<p>Hi &lt;img src=x onerror=alert(1)&gt;, &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(html).not.toMatch(/<img|<script/);
    const attr = renderMessage('<a href="{{recoveryUrl}}">x</a>', { recoveryUrl: 'https://s.example/c?a=1&b="2"' });
    expect(attr).toBe('<a href="https://s.example/c?a=1&amp;b=&quot;2&quot;">x</a>');
  });

  it('both channels render every spelling and the new variables alike', () => {
    const c = cart({ items: [{ ...SAMPLE_CART.items[0]!, name: 'Mug' }] });
    const v = messageValues({ cart: c, discountCode: 'X1' });
    expect(renderSmsTemplate('{first_item_name} {{ discountCode }} {{cartTotal}}', {
      first_item_name: v.first_item_name,
      discount_code: v.discount_code,
      cart_total: v.cart_total,
    })).toBe('Mug X1 $129.99');
    expect(renderTemplateVariables('{first_item_name} {{ discountCode }}', { firstItemName: 'Mug', discountCode: 'X1' })).toBe('Mug X1');
  });
});
