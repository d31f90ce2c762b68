/**
 * Test helper: a local stand-in for the Shopify Admin GraphQL API's `discountCodeBasicCreate`, as documented:
 * `POST /admin/api/<version>/graphql.json` with `X-Shopify-Access-Token` and `{ query, variables }`; the answer
 * `{ data: { discountCodeBasicCreate: { codeDiscountNode, userErrors: [{ field, code, message }] } }, extensions: { cost } }`.
 * A code already held answers the userError `TAKEN` on `["basicCodeDiscount", "code"]`; a wrong token 401
 * `{ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" }`. Faults to order:
 * `failNext(n, status)` answers 5xx n times (after creating the code when `afterCreate`: the answer lost, the code
 * made), `throttleNext(n)` answers `THROTTLED` with the cost extension (`throttleStatus` with `currentlyAvailable`
 * below the requested cost and a restore rate).
 */
import { createServer, type Server } from 'node:http';

export interface FakeShopifyDiscount {
  id: string;
  title: string;
  code: string;
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
  appliesOncePerCustomer: boolean;
  customerGets: unknown;
  createdAt: number;
}

export interface FakeShopifyAdmin {
  url: string;
  token: string;
  /** Every call, as received (times in ms), answered or not. */
  calls: { at: number; status: number; throttled: boolean; code: string | null }[];
  discounts: FakeShopifyDiscount[];
  failNext(n: number, status?: number, opts?: { afterCreate?: boolean }): void;
  /** The next n calls are throttled; `restoreRate` points a second, `available` points left (requested cost is 10). */
  throttleNext(n: number, opts?: { available?: number; restoreRate?: number }): void;
  close(): Promise<void>;
}

const REQUESTED_COST = 10;
const MAXIMUM = 2000;

export async function startFakeShopifyAdmin(opts: { token?: string } = {}): Promise<FakeShopifyAdmin> {
  const token = opts.token ?? 'shpat_fake_admin_token';
  const discounts: FakeShopifyDiscount[] = [];
  const calls: FakeShopifyAdmin['calls'] = [];
  let failing = 0;
  let failStatus = 503;
  let failAfterCreate = false;
  let throttling = 0;
  let throttleAvailable = 0;
  let throttleRestore = 100;
  let seq = 1;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown, code: string | null = null, throttled = false) => {
        calls.push({ at: Date.now(), status, throttled, code });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(req.url ?? '')) return send(404, { errors: 'Not Found' });
      if (req.headers['x-shopify-access-token'] !== token)
        return send(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      let parsed: { query?: string; variables?: { basicCodeDiscount?: Record<string, unknown> } };
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { errors: { query: 'Required parameter missing or invalid' } });
      }
      const input = parsed.variables?.basicCodeDiscount;
      const code = typeof input?.code === 'string' ? input.code : null;
      const cost = (available: number) => ({
        cost: { requestedQueryCost: REQUESTED_COST, actualQueryCost: available >= REQUESTED_COST ? REQUESTED_COST : null, throttleStatus: { maximumAvailable: MAXIMUM, currentlyAvailable: available, restoreRate: throttleRestore } },
      });
      if (throttling > 0) {
        throttling--;
        return send(
          200,
          {
            errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
            extensions: cost(throttleAvailable),
          },
          code,
          true,
        );
      }
      if (!parsed.query?.includes('discountCodeBasicCreate') || !input) {
        return send(200, { errors: [{ message: 'Field discountCodeBasicCreate is missing required arguments: basicCodeDiscount', extensions: { code: 'missingRequiredArguments' } }] });
      }
      const userErrors: { field: string[]; code: string; message: string }[] = [];
      if (!code) userErrors.push({ field: ['basicCodeDiscount', 'code'], code: 'BLANK', message: "Code can't be blank" });
      if (typeof input.title !== 'string' || !input.title) userErrors.push({ field: ['basicCodeDiscount', 'title'], code: 'BLANK', message: "Title can't be blank" });
      if (!input.customerGets) userErrors.push({ field: ['basicCodeDiscount', 'customerGets'], code: 'BLANK', message: "Customer gets can't be blank" });
      if (code && discounts.some((d) => d.code.toUpperCase() === code.toUpperCase()))
        userErrors.push({ field: ['basicCodeDiscount', 'code'], code: 'TAKEN', message: 'Code must be unique. Please try a different code.' });
      const create = userErrors.length === 0;
      if (failing > 0) {
        failing--;
        if (create && failAfterCreate) record();
        return send(failStatus, { errors: 'Internal Server Error' }, code);
      }
      if (!create) return send(200, { data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors } }, extensions: cost(MAXIMUM - REQUESTED_COST) }, code);
      const d = record();
      send(
        200,
        {
          data: {
            discountCodeBasicCreate: {
              codeDiscountNode: { id: d.id, codeDiscount: { title: d.title, startsAt: d.startsAt, endsAt: d.endsAt, codes: { nodes: [{ code: d.code }] } } },
              userErrors: [],
            },
          },
          extensions: cost(MAXIMUM - REQUESTED_COST),
        },
        code,
      );

      function record(): FakeShopifyDiscount {
        const d: FakeShopifyDiscount = {
          id: `gid://shopify/DiscountCodeNode/${seq++}`,
          title: String(input!.title),
          code: code!,
          startsAt: String(input!.startsAt),
          endsAt: typeof input!.endsAt === 'string' ? input!.endsAt : null,
          usageLimit: typeof input!.usageLimit === 'number' ? input!.usageLimit : null,
          appliesOncePerCustomer: input!.appliesOncePerCustomer === true,
          customerGets: input!.customerGets,
          createdAt: Date.now(),
        };
        discounts.push(d);
        return d;
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}`,
    token,
    calls,
    discounts,
    failNext(n, status = 503, o = {}) {
      failing = n;
      failStatus = status;
      failAfterCreate = o.afterCreate ?? false;
    },
    throttleNext(n, o = {}) {
      throttling = n;
      throttleAvailable = o.available ?? 0;
      throttleRestore = o.restoreRate ?? 100;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
