import type { ShopCodeCreator, ShopCodeRequest, ShopCodeResult } from '../shop-code';
import { DAY_MS, withoutTrailingSlashes } from '../shop-code';

const TIMEOUT_MS = 10_000;
/** WooCommerce's answer when the code exists: an earlier call for the same grant whose answer was lost. */
const ALREADY_EXISTS = 'woocommerce_rest_coupon_code_already_exists';

/** The coupon's body: single use, once per user, ending after N days (`date_expires`, the store's time zone). */
export function couponBody(req: ShopCodeRequest) {
  return {
    code: req.code,
    discount_type: req.discount === 'percentage' ? 'percent' : 'fixed_cart',
    amount: req.value.toFixed(2),
    individual_use: true,
    usage_limit: 1,
    usage_limit_per_user: 1,
    date_expires: new Date(req.now.getTime() + req.days * DAY_MS).toISOString().slice(0, 19),
    description: req.title,
  };
}

/** Creates coupons through the WooCommerce REST API (`POST /wp-json/wc/v3/coupons`, basic auth over HTTPS). */
export class WooCommerceCouponCreator implements ShopCodeCreator {
  constructor(
    private readonly storeUrl: string,
    private readonly consumerKey: string,
    private readonly consumerSecret: string,
    private readonly opts: { fetch?: typeof fetch } = {},
  ) {}

  async create(req: ShopCodeRequest): Promise<ShopCodeResult> {
    const doFetch = this.opts.fetch ?? fetch;
    let res: Response;
    try {
      res = await doFetch(`${withoutTrailingSlashes(this.storeUrl)}/wp-json/wc/v3/coupons`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${this.consumerKey}:${this.consumerSecret}`).toString('base64')}`,
        },
        body: JSON.stringify(couponBody(req)),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      return { ok: 'retry', message: `WooCommerce did not answer: ${(err as Error).message}` };
    }
    if (res.status === 201 || res.status === 200) return { ok: 'created' };
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    if (body.code === ALREADY_EXISTS) return { ok: 'created' };
    if (res.status >= 500 || res.status === 429) return { ok: 'retry', message: `WooCommerce answered ${res.status}` };
    return { ok: 'refused', message: `WooCommerce: ${body.message ?? `answered ${res.status}`}` };
  }
}
