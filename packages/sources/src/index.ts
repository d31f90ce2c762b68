import { generic } from './generic';
import { clickfunnels2 } from './clickfunnels2';
import { clickfunnelsClassic } from './clickfunnels-classic';
import { shopify } from './shopify';
import type { SourceAdapter, SourceId } from './types';

export * from './types';
export { detectSource } from './detect';
export { GENERIC_SCHEME } from './generic';
export {
  CLICKFUNNELS2_SCHEME,
  CONTACT_EVENTS as CLICKFUNNELS2_CONTACT_EVENTS,
  PAID_EVENTS as CLICKFUNNELS2_PAID_EVENTS,
} from './clickfunnels2';

export const ADAPTERS: Record<SourceId, SourceAdapter> = {
  generic,
  clickfunnels2,
  clickfunnels_classic: clickfunnelsClassic,
  shopify,
};

export function adapterFor(id: SourceId): SourceAdapter {
  return ADAPTERS[id];
}

export function isSourceId(v: unknown): v is SourceId {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(ADAPTERS, v);
}
