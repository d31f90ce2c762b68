import { CART_LIMITS, currencyDigits, formatMoney, majorToMinor, minorToDecimal, normalizeCart } from './cart';

const at = new Date('2026-11-27T10:00:00.000Z');

describe('money in minor units', () => {
  it('takes each currency’s own digits', () => {
    expect([currencyDigits('USD'), currencyDigits('JPY'), currencyDigits('KWD'), currencyDigits('usd')]).toEqual([
      2,
      0,
      3,
      null,
    ]);
  });

  it('reads decimal text without floating point, rounding half away from zero', () => {
    expect(majorToMinor('72.32', 2)).toBe(7232);
    expect(majorToMinor('97.0', 2)).toBe(9700);
    // 0.1 + 0.2 style values: a float sum would give 30.000000000000004
    expect(majorToMinor(0.3, 2)).toBe(30);
    expect(majorToMinor('1200', 0)).toBe(1200);
    expect(majorToMinor('19.995', 2)).toBe(2000);
    expect(majorToMinor('-5.005', 2)).toBe(-501);
    expect(majorToMinor('1.5e3', 2)).toBeNull();
    expect(majorToMinor('12,00', 2)).toBeNull();
    expect(majorToMinor('123456789012345678', 2)).toBeNull();
  });

  it('formats with the currency’s digits', () => {
    expect(minorToDecimal(7232, 'USD')).toBe('72.32');
    expect(minorToDecimal(5, 'USD')).toBe('0.05');
    expect(minorToDecimal(1200, 'JPY')).toBe('1200');
    expect(minorToDecimal(1234, 'KWD')).toBe('1.234');
    expect(formatMoney(7232, 'USD')).toBe('$72.32');
    expect(formatMoney(120000, 'JPY')).toBe('¥120,000');
  });
});

describe('normalizeCart', () => {
  it('keeps a documented cart in minor units with the sender’s timestamp', () => {
    const { cart, notes } = normalizeCart(
      {
        currency: 'cad',
        items: [
          {
            name: 'Wool socks',
            variant: 'Grey / M',
            quantity: 2,
            unitPrice: { major: '32.00' },
            sku: 'WS-GR-M',
            imageUrl: 'https://cdn.example.com/socks.png',
          },
        ],
        subtotal: { major: '64.00' },
        total: { major: '72.32' },
        discounts: { major: '0.00' },
        recoveryUrl: 'https://shop.example.com/recover?key=1',
        updatedAt: '2026-11-20T14:03:40-05:00',
      },
      at,
    );
    expect(notes).toEqual([]);
    expect(cart).toEqual({
      items: [
        {
          name: 'Wool socks',
          variant: 'Grey / M',
          quantity: 2,
          unit_price: 3200,
          line_total: 6400,
          product_url: null,
          image_url: 'https://cdn.example.com/socks.png',
          sku: 'WS-GR-M',
        },
      ],
      more_items: 0,
      subtotal: 6400,
      discounts: 0,
      total: 7232,
      currency: 'CAD',
      recovery_url: 'https://shop.example.com/recover?key=1',
      recovery_expires_at: null,
      updated_at: '2026-11-20T19:03:40.000Z',
      updated_at_source: 'sender',
    });
  });

  it('drops what breaks the limits with a note, and keeps the rest', () => {
    const items = Array.from({ length: 105 }, (_, i) => ({ name: `Item ${i}`, quantity: 1, unitPrice: { minor: 100 } }));
    items[0] = { name: 'x'.repeat(500), quantity: 1, unitPrice: { minor: 100 } };
    (items as unknown[])[1] = { name: '', quantity: 1 };
    (items as unknown[])[2] = { name: 'Bad qty', quantity: 1.5 };
    (items as unknown[])[3] = { name: 'Bad link', quantity: 1, productUrl: 'javascript:alert(1)', imageUrl: 'data:x' };
    (items as unknown[])[4] = { name: 'Bad price', quantity: 1, unitPrice: { minor: 1.5 } };
    const { cart, notes } = normalizeCart(
      { currency: 'USD', items, total: { minor: 'lots' }, recoveryUrl: 'ftp://x', updatedAt: 'yesterday' },
      at,
    );
    expect(cart!.items).toHaveLength(CART_LIMITS.items - 2);
    expect(cart!.more_items).toBe(5);
    expect(cart!.items[0].name).toHaveLength(CART_LIMITS.name);
    const badLink = cart!.items.find((i) => i.name === 'Bad link')!;
    expect([badLink.product_url, badLink.image_url]).toEqual([null, null]);
    expect(cart!.items.find((i) => i.name === 'Bad price')!.unit_price).toBeNull();
    expect(cart!.total).toBeNull();
    expect(cart!.recovery_url).toBeNull();
    expect(cart!.updated_at).toBe(at.toISOString());
    expect(cart!.updated_at_source).toBe('received');
    expect(notes).toEqual(
      expect.arrayContaining([
        "Cart: item 1's text was cut to its limit",
        'Cart: item 2 has no name; dropped',
        'Cart: item 3 has no valid quantity; dropped',
        "Cart: item 4's product URL is not an http(s) URL; dropped",
      ]),
    );
    expect(notes.length).toBeLessThanOrEqual(11);
  });

  it('keeps no amounts without a known currency, and no cart when nothing is left', () => {
    const r = normalizeCart({ currency: 'dollars', total: { major: '10.00' } }, at);
    expect(r.cart).toBeNull();
    expect(r.notes).toEqual([
      'Cart: the currency is not an ISO 4217 code; amounts dropped',
      'Cart: the total is not an amount; dropped',
    ]);
    expect(normalizeCart({ total: { minor: 1000 } }, at).notes).toEqual(['Cart: the total has no currency; dropped']);
    expect(normalizeCart(null, at)).toEqual({ cart: null, notes: [] });
  });

  it('gives a total-only cart from an amount and a currency', () => {
    const { cart } = normalizeCart({ currency: 'JPY', total: { major: 1200 }, updatedAt: 1764237600 }, at);
    expect(cart).toMatchObject({ items: [], total: 1200, currency: 'JPY', updated_at: '2025-11-27T10:00:00.000Z' });
  });
});
