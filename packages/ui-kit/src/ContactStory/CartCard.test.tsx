import { render, screen } from '@testing-library/react';
import type { TimelineCart } from '@act/contracts/src/timeline';
import { formatMoney } from '../format';
import { CartCard } from './CartCard';

const cart = (over: Partial<TimelineCart>): TimelineCart => ({ items: [], more_items: 0, total: null, currency: null, recovery_url: null, ...over });

describe('the contact page cart block', () => {
  it('writes the amount a sender gave without lines, in the shared money format and the currency’s own digits', () => {
    render(<CartCard cart={cart({ total: 4999, currency: 'USD' })} />);
    const line = screen.getByTestId('cart-no-lines').textContent;
    expect(line).toBe(`The sender gave the amount only: ${formatMoney(49.99, 'USD')}.`);
    expect(line).toMatch(/49\.99/);
  });

  it('reads minor units with the currency’s digits (yen has none)', () => {
    render(<CartCard cart={cart({ total: 4999, currency: 'JPY' })} />);
    expect(screen.getByTestId('cart-no-lines').textContent).toBe(`The sender gave the amount only: ${formatMoney(4999, 'JPY')}.`);
  });

  it('claims no amount for a cart that is only a checkout link', () => {
    render(<CartCard cart={cart({ recovery_url: 'https://shop.example/checkout/1' })} />);
    expect(screen.getByTestId('cart-no-lines').textContent).toBe('The sender gave the checkout link only.');
    expect(screen.getByRole('link', { name: 'Checkout link' }).getAttribute('href')).toBe('https://shop.example/checkout/1');
  });

  it('lists the lines and says nothing of an amount-only cart when the sender gave lines', () => {
    render(<CartCard cart={cart({ total: 2500, currency: 'GBP', items: [{ name: 'Scarf', variant: 'Grey', quantity: 2, line_total: 2500 }] })} />);
    expect(screen.queryByTestId('cart-no-lines')).toBeNull();
    expect(screen.getByTestId('contact-cart').textContent).toContain(`2 × Scarf (Grey)${formatMoney(25, 'GBP')}`);
  });
});
