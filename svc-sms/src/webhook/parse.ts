/**
 * Reads a funnel delivery in either format of docs/webhooks.md (new `event` + `contact` object, or legacy flat
 * `event_type`) into one shape. Pure: no I/O, so every format rule is unit-tested.
 */

export type FunnelEventKind = 'contact_created' | 'contact_updated' | 'purchase_created';

export type ParsedFunnelWebhook =
  | { kind: 'handshake' }
  | {
      kind: 'contact' | 'purchase';
      event: FunnelEventKind;
      funnelId: string | null;
      contactId: string | null;
      email: string | null;
      /** As sent; normalised later. */
      phone: string | null;
      firstName: string | null;
      checkoutUrl: string | null;
      amount: number | null;
      currency: string | null;
    }
  | { kind: 'invalid'; error: string };

const KNOWN: FunnelEventKind[] = ['contact_created', 'contact_updated', 'purchase_created'];

function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/**
 * Longest values a delivery may carry; beyond them it is refused (400, stored as `invalid`) rather than stored and
 * shown: the same bounds as the email side's webhook and the integration form (ids and names 200, email 320).
 */
export const FIELD_LIMITS = {
  funnel_id: 200,
  contact_id: 200,
  email: 320,
  phone: 40,
  first_name: 200,
  checkout_url: 2048,
  currency: 10,
} as const;

export function parseFunnelWebhook(body: unknown): ParsedFunnelWebhook {
  const b = obj(body);
  if (!b) return { kind: 'invalid', error: 'Request body must be a JSON object' };
  const eventName = str(b.event) ?? str(b.event_type);
  if (!eventName) return { kind: 'invalid', error: 'event is required' };
  if (eventName === 'handshake') return { kind: 'handshake' };
  if (!KNOWN.includes(eventName as FunnelEventKind))
    // A huge unknown name is not echoed back in full.
    return { kind: 'invalid', error: `Unknown event type: ${eventName.slice(0, 100)}` };
  const event = eventName as FunnelEventKind;
  // New format nests the contact; the legacy one is flat. Read the nested value first, the flat one as fallback.
  const contact = obj(b.contact) ?? {};
  const purchase = obj(b.purchase) ?? {};
  const parsed = {
    kind: event === 'purchase_created' ? ('purchase' as const) : ('contact' as const),
    event,
    funnelId: str(b.funnel_id) ?? str(contact.funnel_id),
    contactId: str(contact.id) ?? str(b.contact_id) ?? str(contact.contact_id),
    email: str(contact.email) ?? str(b.email),
    phone: str(contact.phone) ?? str(b.phone),
    firstName: str(contact.first_name) ?? str(b.first_name),
    checkoutUrl: str(contact.checkout_url) ?? str(b.checkout_url),
    amount: num(purchase.amount) ?? num(b.amount),
    currency: str(purchase.currency) ?? str(b.currency),
  };
  const values: Record<keyof typeof FIELD_LIMITS, string | null> = {
    funnel_id: parsed.funnelId,
    contact_id: parsed.contactId,
    email: parsed.email,
    phone: parsed.phone,
    first_name: parsed.firstName,
    checkout_url: parsed.checkoutUrl,
    currency: parsed.currency,
  };
  for (const [field, max] of Object.entries(FIELD_LIMITS) as [keyof typeof FIELD_LIMITS, number][]) {
    const v = values[field];
    if (v !== null && v.length > max) return { kind: 'invalid', error: `${field} must be at most ${max} characters` };
  }
  return parsed;
}
