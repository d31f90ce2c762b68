import type { ShopCodeCreator, ShopCodeRequest, ShopCodeResult } from '../shop-code';
import { DAY_MS, sleep, withoutTrailingSlashes } from '../shop-code';

/** The Admin API version the mutation below is written for. */
export const SHOPIFY_API_VERSION = '2024-10';
/** Throttled calls waited for within one send, at most; past that the send is retried later. */
const MAX_THROTTLE_WAITS = 3;
const MAX_THROTTLE_WAIT_MS = 10_000;
const TIMEOUT_MS = 10_000;

export const DISCOUNT_CODE_BASIC_CREATE = `mutation discountCodeBasicCreate($basicCodeDiscount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
    codeDiscountNode { id codeDiscount { ... on DiscountCodeBasic { title startsAt endsAt codes(first: 1) { nodes { code } } } } }
    userErrors { field code message }
  }
}`;

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}
interface GraphQlAnswer {
  data?: { discountCodeBasicCreate?: { codeDiscountNode: unknown; userErrors: { field: string[] | null; code: string | null; message: string }[] } };
  errors?: { message: string; extensions?: { code?: string } }[];
  extensions?: { cost?: { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: ThrottleStatus } };
}

/**
 * Shopify's wait for a throttled call: the points it lacks at the bucket's restore rate (the leaky bucket of the
 * GraphQL Admin API's rate limits), at least a second.
 */
export function throttleWaitMs(answer: GraphQlAnswer): number {
  const cost = answer.extensions?.cost;
  if (!cost?.throttleStatus?.restoreRate) return 1_000;
  const lacking = cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable;
  return Math.max(1_000, Math.ceil((lacking / cost.throttleStatus.restoreRate) * 1_000));
}

/** The mutation's input: one code, single use, once per customer, for every customer and item, ending after N days. */
export function basicCodeDiscountInput(req: ShopCodeRequest) {
  return {
    title: req.title,
    code: req.code,
    startsAt: req.now.toISOString(),
    endsAt: new Date(req.now.getTime() + req.days * DAY_MS).toISOString(),
    customerSelection: { all: true },
    customerGets: {
      value:
        req.discount === 'percentage'
          ? { percentage: req.value / 100 }
          : { discountAmount: { amount: req.value.toFixed(2), appliesOnEachItem: false } },
      items: { all: true },
    },
    appliesOncePerCustomer: true,
    usageLimit: 1,
  };
}

/** Creates codes through the Shopify Admin GraphQL API (`discountCodeBasicCreate`) with a shop's admin token. */
export class ShopifyCodeCreator implements ShopCodeCreator {
  /** `shop`: the myshopify domain, or a base URL (the fake's). */
  constructor(
    private readonly shop: string,
    private readonly token: string,
    private readonly opts: { fetch?: typeof fetch; wait?: (ms: number) => Promise<void> } = {},
  ) {}

  private get endpoint(): string {
    const base = /^https?:\/\//.test(this.shop) ? withoutTrailingSlashes(this.shop) : `https://${this.shop}`;
    return `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  }

  async create(req: ShopCodeRequest): Promise<ShopCodeResult> {
    const doFetch = this.opts.fetch ?? fetch;
    const wait = this.opts.wait ?? sleep;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(this.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-shopify-access-token': this.token },
          body: JSON.stringify({ query: DISCOUNT_CODE_BASIC_CREATE, variables: { basicCodeDiscount: basicCodeDiscountInput(req) } }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        return { ok: 'retry', message: `Shopify did not answer: ${(err as Error).message}` };
      }
      if (res.status >= 500 || res.status === 429) return { ok: 'retry', message: `Shopify answered ${res.status}` };
      if (res.status === 401 || res.status === 403) return { ok: 'refused', message: `Shopify refused the admin token (${res.status})` };
      if (!res.ok) return { ok: 'refused', message: `Shopify answered ${res.status}` };
      const answer = (await res.json().catch(() => ({}))) as GraphQlAnswer;
      if (answer.errors?.some((e) => e.extensions?.code === 'THROTTLED')) {
        const ms = throttleWaitMs(answer);
        if (attempt >= MAX_THROTTLE_WAITS || ms > MAX_THROTTLE_WAIT_MS) return { ok: 'retry', message: 'Shopify throttled the call' };
        await wait(ms);
        continue;
      }
      if (answer.errors?.length) return { ok: 'refused', message: `Shopify: ${answer.errors.map((e) => e.message).join('; ')}` };
      const payload = answer.data?.discountCodeBasicCreate;
      if (!payload) return { ok: 'retry', message: 'Shopify answered without a result' };
      if (payload.userErrors.length === 0 && payload.codeDiscountNode) return { ok: 'created' };
      // The code exists already: an earlier call for this very grant was answered after its answer was lost.
      if (payload.userErrors.every((e) => e.code === 'TAKEN' && (e.field ?? []).includes('code'))) return { ok: 'created' };
      return { ok: 'refused', message: `Shopify: ${payload.userErrors.map((e) => e.message).join('; ')}` };
    }
  }
}
