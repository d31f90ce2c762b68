import { generic } from './generic';
import { clickfunnels2 } from './clickfunnels2';
import { clickfunnelsClassic } from './clickfunnels-classic';
import { shopify } from './shopify';
import { stripe } from './stripe';
import { woocommerce } from './woocommerce';
import type { SourceAdapter, SourceId } from './types';

export const ADAPTERS: Record<SourceId, SourceAdapter> = {
  generic,
  clickfunnels2,
  clickfunnels_classic: clickfunnelsClassic,
  shopify,
  stripe,
  woocommerce,
};

export function adapterFor(id: SourceId): SourceAdapter {
  return ADAPTERS[id];
}

export function isSourceId(v: unknown): v is SourceId {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(ADAPTERS, v);
}
