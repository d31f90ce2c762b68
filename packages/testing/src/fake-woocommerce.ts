/**
 * Test helper: a local stand-in for the WooCommerce REST API's `POST /wp-json/wc/v3/coupons`, as documented: HTTP
 * Basic auth with the consumer key and secret; a 201 with the coupon (`id`, `code` lower-cased as WooCommerce stores
 * it, `discount_type`, `amount`, `usage_limit`, `date_expires`...); errors as `{ code, message, data: { status } }`:
 * 401 `woocommerce_rest_cannot_create`, 400 `woocommerce_rest_coupon_code_already_exists`, 400 `rest_missing_callback_param`.
 * `failNext(n, status)` answers 5xx n times.
 */
import { createServer, type Server } from 'node:http';

export interface FakeWooCoupon {
  id: number;
  code: string;
  discount_type: string;
  amount: string;
  usage_limit: number | null;
  usage_limit_per_user: number | null;
  date_expires: string | null;
  individual_use: boolean;
}

export interface FakeWooCommerce {
  url: string;
  key: string;
  secret: string;
  coupons: FakeWooCoupon[];
  calls: { status: number; code: string | null }[];
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

export async function startFakeWooCommerce(opts: { key?: string; secret?: string } = {}): Promise<FakeWooCommerce> {
  const key = opts.key ?? 'ck_fake_key';
  const secret = opts.secret ?? 'cs_fake_secret';
  const coupons: FakeWooCoupon[] = [];
  const calls: FakeWooCommerce['calls'] = [];
  let failing = 0;
  let failStatus = 500;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let code: string | null = null;
      const send = (status: number, body: unknown) => {
        calls.push({ status, code });
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(body));
      };
      const err = (status: number, c: string, message: string) => send(status, { code: c, message, data: { status } });
      if (req.method !== 'POST' || req.url !== '/wp-json/wc/v3/coupons') return err(404, 'rest_no_route', 'No route was found matching the URL and request method.');
      if (req.headers.authorization !== `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`)
        return err(401, 'woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return err(400, 'rest_invalid_json', 'Invalid JSON body passed.');
      }
      code = typeof body.code === 'string' ? body.code : null;
      if (!code) return err(400, 'rest_missing_callback_param', 'Missing parameter(s): code');
      if (failing > 0) {
        failing--;
        return err(failStatus, 'internal_server_error', 'There has been a critical error on this website.');
      }
      const stored = code.toLowerCase();
      if (coupons.some((c) => c.code === stored)) return err(400, 'woocommerce_rest_coupon_code_already_exists', 'The coupon code already exists');
      const coupon: FakeWooCoupon = {
        id: coupons.length + 100,
        code: stored,
        discount_type: typeof body.discount_type === 'string' ? body.discount_type : 'fixed_cart',
        amount: typeof body.amount === 'string' ? body.amount : '0',
        usage_limit: typeof body.usage_limit === 'number' ? body.usage_limit : null,
        usage_limit_per_user: typeof body.usage_limit_per_user === 'number' ? body.usage_limit_per_user : null,
        date_expires: typeof body.date_expires === 'string' ? body.date_expires : null,
        individual_use: body.individual_use === true,
      };
      coupons.push(coupon);
      send(201, coupon);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}`,
    key,
    secret,
    coupons,
    calls,
    failNext(n, status = 500) {
      failing = n;
      failStatus = status;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
