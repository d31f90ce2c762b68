import type { Headers } from './types';
import { EMAIL_PATTERN as EMAIL } from '@act/contracts/src/email-address';

/** Longest values a delivery may carry (the same bounds as the spec formats' webhooks and integration forms). */
export const LIMITS = { id: 200, email: 320, phone: 40, name: 200, url: 2048, currency: 10 } as const;

export function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A trimmed string (numbers as their text), null when absent or empty; anything else (objects, arrays) is null. */
export function text(v: unknown, max: number = LIMITS.id): string | null {
  let s: string | null = null;
  if (typeof v === 'string') s = v.trim();
  else if (typeof v === 'number' && Number.isFinite(v)) s = String(v);
  if (!s) return null;
  return s.length > max ? null : s;
}

export function amount(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function currency(v: unknown): string | null {
  const c = text(v, LIMITS.currency);
  return c ? c.toUpperCase() : null;
}

/** An email address as sent, or null when absent or not an address. */
export function email(v: unknown): string | null {
  const e = text(v, LIMITS.email);
  return e && EMAIL.test(e) ? e : null;
}

/** First value of a header (Node joins repeats into arrays for a few names only). */
export function header(headers: Headers, name: string): string | null {
  const v = headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s !== '' ? s : null;
}

/** The first non-null of several candidate readings. */
export function first<T>(...values: (T | null | undefined)[]): T | null {
  for (const v of values) if (v !== null && v !== undefined) return v;
  return null;
}

/**
 * A purchase's used codes from a sender's list of objects (`[{ code, amount }]`), at most 20, codes capped, as the
 * fact's `discountCodes` (left out when there are none).
 */
export function usedCodes(list: unknown, amountField: string): { discountCodes?: { code: string; amount: string | number | null }[] } {
  const codes = usedCodeList(list, amountField);
  return codes.length ? { discountCodes: codes } : {};
}

function usedCodeList(list: unknown, amountField: string): { code: string; amount: string | number | null }[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, 20)
    .map((x) => obj(x))
    .filter((x): x is Record<string, unknown> => x !== null)
    .map((x) => {
      const raw = x[amountField];
      return { code: text(x.code, 100) ?? '', amount: typeof raw === 'string' || typeof raw === 'number' ? raw : null };
    })
    .filter((x) => x.code !== '');
}
