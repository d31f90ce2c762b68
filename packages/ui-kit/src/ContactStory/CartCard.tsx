import { Link, Paper, Stack, Typography } from '@mui/material';
import type { TimelineCart } from '@act/contracts/src/timeline';
import { currencyDigits } from '@act/contracts/src/cart';
import { formatMoney } from '../format';

/** An amount in minor units (a cart's) in the shared money format. */
export function minorMoney(minor: number | null, currency: string | null): string {
  if (minor === null || !currency) return formatMoney(null, currency);
  const digits = currencyDigits(currency) ?? 2;
  return formatMoney(minor / 10 ** digits, currency);
}

/**
 * What a cart without lines says: a sender that gave only a total (the spec's formats, a ClickFunnels amount) has
 * it written on that line, so the claim and its figure sit together; one that gave only the checkout link (a
 * ClickFunnels 2.0 contact) has no amount to claim.
 */
function noLinesText(cart: TimelineCart): string {
  return cart.total !== null
    ? `The sender gave the amount only: ${minorMoney(cart.total, cart.currency)}.`
    : 'The sender gave the checkout link only.';
}

/** The contact page's cart block: the lines the sender gave with their totals, else what it gave instead. */
export function CartCard({ cart }: { cart: TimelineCart }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }} data-testid="contact-cart">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        Cart {cart.total !== null && `· ${minorMoney(cart.total, cart.currency)}`}
      </Typography>
      <Stack spacing={0.5}>
        {cart.items.map((item, i) => (
          <Stack key={i} direction="row" spacing={2} sx={{ justifyContent: 'space-between' }}>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {item.quantity} × {item.name}
              {item.variant ? ` (${item.variant})` : ''}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
              {minorMoney(item.line_total, cart.currency)}
            </Typography>
          </Stack>
        ))}
        {cart.more_items > 0 && (
          <Typography variant="caption" color="textSecondary">
            and {cart.more_items} more item(s)
          </Typography>
        )}
        {cart.items.length === 0 && (
          <Typography variant="body2" color="textSecondary" data-testid="cart-no-lines">
            {noLinesText(cart)}
          </Typography>
        )}
      </Stack>
      {cart.recovery_url && (
        <Link href={cart.recovery_url} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-block', mt: 1, overflowWrap: 'anywhere' }}>
          Checkout link
        </Link>
      )}
    </Paper>
  );
}
