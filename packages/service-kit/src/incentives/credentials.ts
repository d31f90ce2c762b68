import { BadRequestError } from '../errors';
import type { SecretBox } from '../secret-box';
import type { IncentiveModels, ShopCredentialsDoc } from './model';
import { withoutTrailingSlashes } from './shop-code';

import type { ShopCredentialsStatus } from '@act/contracts/src/incentives-api';

export type { ShopCredentialsStatus } from '@act/contracts/src/incentives-api';

const MYSHOPIFY = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i;

/** The shop an integration creates codes in, with its admin credentials sealed (SECRETS_KEY), write-only. */
export class ShopCredentials {
  constructor(private readonly m: IncentiveModels, private readonly box: SecretBox) {}

  async status(integrationId: number): Promise<ShopCredentialsStatus> {
    const c = await this.m.Credentials.findOne({ integration_id: integrationId }).lean<ShopCredentialsDoc>();
    return c
      ? { platform: c.platform, shop: c.shop, has_key: true, has_secret: Boolean(c.secret_sealed) }
      : { platform: null, shop: null, has_key: false, has_secret: false };
  }

  /**
   * Shopify: the shop's myshopify domain and an Admin API access token (write_discounts). WooCommerce: the store's
   * https URL, a REST consumer key and secret (read/write). `allowHttp` only for local fakes.
   */
  async set(
    integrationId: number,
    input: { platform?: unknown; shop?: unknown; key?: unknown; secret?: unknown },
    { allowHttp = false } = {},
  ): Promise<ShopCredentialsStatus> {
    const platform = input.platform;
    if (platform !== 'shopify' && platform !== 'woocommerce') throw new BadRequestError('Platform must be shopify or woocommerce');
    const shop = typeof input.shop === 'string' ? withoutTrailingSlashes(input.shop.trim()) : '';
    const local = allowHttp && /^http:\/\/127\.0\.0\.1:\d+$/.test(shop);
    if (platform === 'shopify' && !MYSHOPIFY.test(shop) && !local) throw new BadRequestError('Shop must be its myshopify.com domain');
    if (platform === 'woocommerce' && !/^https:\/\/[^\s/]+(\/[^\s]*)?$/i.test(shop) && !local)
      throw new BadRequestError('Store URL must start with https://');
    const key = typeof input.key === 'string' ? input.key.trim() : '';
    if (!key || key.length > 500) throw new BadRequestError(platform === 'shopify' ? 'Admin API access token is required' : 'Consumer key is required');
    const secret = typeof input.secret === 'string' ? input.secret.trim() : '';
    if (platform === 'woocommerce' && (!secret || secret.length > 500)) throw new BadRequestError('Consumer secret is required');
    await this.m.Credentials.collection.updateOne(
      { integration_id: integrationId },
      {
        $set: {
          platform,
          shop,
          key_sealed: this.box.seal(key),
          secret_sealed: platform === 'woocommerce' ? this.box.seal(secret) : null,
          updated_at: new Date(),
        },
      },
      { upsert: true },
    );
    return this.status(integrationId);
  }

  async clear(integrationId: number): Promise<ShopCredentialsStatus> {
    await this.m.Credentials.deleteOne({ integration_id: integrationId });
    return this.status(integrationId);
  }
}
