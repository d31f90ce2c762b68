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

export function parseFunnelWebhook(body: unknown): ParsedFunnelWebhook {
  const b = obj(body);
  if (!b) return { kind: 'invalid', error: 'Request body must be a JSON object' };
  const eventName = str(b.event) ?? str(b.event_type);
  if (!eventName) return { kind: 'invalid', error: 'event is required' };
  if (eventName === 'handshake') return { kind: 'handshake' };
  if (!KNOWN.includes(eventName as FunnelEventKind))
    return { kind: 'invalid', error: `Unknown event type: ${eventName}` };
  const event = eventName as FunnelEventKind;
  // New format nests the contact; the legacy one is flat. Read the nested value first, the flat one as fallback.
  const contact = obj(b.contact) ?? {};
  const purchase = obj(b.purchase) ?? {};
  return {
    kind: event === 'purchase_created' ? 'purchase' : 'contact',
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
}
