/**
 * Test helper: a local stand-in for the Stripe API's Checkout Session line items (STRIPE_API_BASE points the official
 * library at it). Knows `GET /v1/checkout/sessions/{id}/line_items` with `limit` and `expand[]=data.price.product`,
 * answering Stripe's list object (`{ object: 'list', data: [item…], has_more, url }`) with items as documented
 * (`id`, `object: 'item'`, `amount_subtotal`, `amount_total`, `amount_discount`, `amount_tax`, `currency`,
 * `description`, `quantity`, `price` with `unit_amount` and `product` as an id or, expanded, the Product with
 * `name`, `images`, `url`, `metadata`). Errors take Stripe's shape `{ error: { type, code, message, param } }`:
 * an unknown session is 404 `resource_missing`, a key other than the one set (or none) 401, and a key without the
 * `checkout_sessions` read permission (`rk_test_noperm…`) 403, as a restricted key without the scope is.
 * Also `GET /v1/promotion_codes/{id}`: the PromotionCode object (`id`, `object: 'promotion_code'`, `code`, `active`),
 * 404 `resource_missing` for an id never set.
 */
import { createServer, type Server } from 'node:http';

export interface FakeStripeProduct {
  id: string;
  name: string;
  images?: string[];
  url?: string | null;
  metadata?: Record<string, string>;
}

export interface FakeStripeLine {
  description: string;
  quantity: number;
  unit_amount: number;
  currency: string;
  product: FakeStripeProduct;
  nickname?: string | null;
  amount_discount?: number;
}

export interface FakeStripeRequest {
  method: string;
  path: string;
  query: string;
  authorization: string | null;
  stripeVersion: string | null;
}

export interface FakeStripe {
  url: string;
  requests: FakeStripeRequest[];
  /** The API key the fake accepts. */
  apiKey: string;
  /** A session's line items, as Stripe would list them. */
  setLineItems(sessionId: string, lines: FakeStripeLine[]): void;
  /** A promotion code (`promo_…`) and the customer-facing code it stands for. */
  setPromotionCode(id: string, code: string): void;
  close(): Promise<void>;
}

function stripeError(status: number, type: string, message: string, code?: string, param?: string) {
  return { status, body: { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } } };
}

export async function startFakeStripe(opts: { apiKey?: string; port?: number } = {}): Promise<FakeStripe> {
  const apiKey = opts.apiKey ?? 'rk_test_fake_checkout_read';
  const sessions = new Map<string, FakeStripeLine[]>();
  const promotionCodes = new Map<string, string>();
  const requests: FakeStripeRequest[] = [];
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake-stripe.local');
    const auth = typeof req.headers.authorization === 'string' ? req.headers.authorization : null;
    requests.push({
      method: req.method ?? 'GET',
      path: u.pathname,
      query: u.search,
      authorization: auth,
      stripeVersion: typeof req.headers['stripe-version'] === 'string' ? req.headers['stripe-version'] : null,
    });
    const answer = (a: { status: number; body: unknown }) => {
      res.writeHead(a.status, { 'content-type': 'application/json', 'request-id': `req_fake_${requests.length}` });
      res.end(JSON.stringify(a.body));
    };
    req.resume();
    const key = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
    if (key?.startsWith('rk_test_noperm'))
      return answer(
        stripeError(
          403,
          'invalid_request_error',
          'The provided key does not have the required permissions for this endpoint. Having the rak_checkout_session_read permission would allow this request to continue.',
        ),
      );
    if (key !== apiKey) return answer(stripeError(401, 'invalid_request_error', `Invalid API Key provided: ${(key ?? '').slice(0, 8)}***`));
    const promo = /^\/v1\/promotion_codes\/([^/]+)$/.exec(u.pathname);
    if (req.method === 'GET' && promo) {
      const id = decodeURIComponent(promo[1]);
      const code = promotionCodes.get(id);
      if (code === undefined) return answer(stripeError(404, 'invalid_request_error', `No such promotion_code: '${id}'`, 'resource_missing', 'id'));
      return answer({ status: 200, body: { id, object: 'promotion_code', active: true, code, livemode: false, metadata: {}, times_redeemed: 1 } });
    }
    const m = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(u.pathname);
    if (req.method !== 'GET' || !m) return answer(stripeError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${u.pathname}).`));
    const sessionId = decodeURIComponent(m[1]);
    const lines = sessions.get(sessionId);
    if (!lines)
      return answer(
        stripeError(404, 'invalid_request_error', `No such checkout.session: '${sessionId}'`, 'resource_missing', 'session'),
      );
    const expanded = [...u.searchParams.entries()].some(([k, v]) => k.startsWith('expand') && v === 'data.price.product');
    const limit = Math.min(100, Math.max(1, Number(u.searchParams.get('limit') ?? 10) || 10));
    const data = lines.slice(0, limit).map((l, i) => {
      const subtotal = l.unit_amount * l.quantity;
      const discount = l.amount_discount ?? 0;
      return {
        id: `li_fake_${sessionId.slice(-6)}_${i}`,
        object: 'item',
        amount_discount: discount,
        amount_subtotal: subtotal,
        amount_tax: 0,
        amount_total: subtotal - discount,
        currency: l.currency,
        description: l.description,
        quantity: l.quantity,
        price: {
          id: `price_fake_${i}`,
          object: 'price',
          active: true,
          currency: l.currency,
          nickname: l.nickname ?? null,
          product: expanded
            ? { object: 'product', active: true, images: [], url: null, metadata: {}, ...l.product }
            : l.product.id,
          type: 'one_time',
          unit_amount: l.unit_amount,
          unit_amount_decimal: String(l.unit_amount),
        },
      };
    });
    return answer({
      status: 200,
      body: {
        object: 'list',
        data,
        has_more: lines.length > limit,
        url: `/v1/checkout/sessions/${sessionId}/line_items`,
      },
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    apiKey,
    setLineItems: (id, lines) => void sessions.set(id, lines),
    setPromotionCode: (id, code) => void promotionCodes.set(id, code),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
