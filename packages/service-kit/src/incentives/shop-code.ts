import type { ShopDiscount } from './config';

/** One code to create in a shop: single use, ending `days` after `now`. */
export interface ShopCodeRequest extends ShopDiscount {
  code: string;
  title: string;
  now: Date;
}

/**
 * created: the shop holds the code now (also when it already did: a retry of a call whose answer was lost).
 * refused: the shop said no for good (its message is logged); retry: try again later (5xx, timeouts, throttling
 * past what one send may wait).
 */
export type ShopCodeResult = { ok: 'created' } | { ok: 'refused'; message: string } | { ok: 'retry'; message: string };

/** An adapter that creates codes in one kind of shop. */
export interface ShopCodeCreator {
  create(req: ShopCodeRequest): Promise<ShopCodeResult>;
}

export const DAY_MS = 86_400_000;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A base URL without its trailing slashes. */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
