/**
 * The funnel's webhook formats (docs/webhooks.md): the new one with an `event` field and a `contact` object,
 * the legacy flat contact_created / purchase_created, and the handshake. Pure, so every rule is unit-tested;
 * hand-written rather than yup because it runs on every delivery of the hot path.
 */
import { EMAIL_PATTERN as EMAIL } from '@act/contracts/src/email-address';

export type FunnelEventKind = 'contact_created' | 'contact_updated' | 'purchase_created';

export type FunnelEvent =
  | { kind: 'handshake' }
  | {
      kind: 'contact_created' | 'contact_updated';
      funnelId: string | null;
      contactId: string;
      email: string;
      phone: string | null;
      firstName: string | null;
    }
  | {
      kind: 'purchase_created';
      funnelId: string | null;
      contactId: string;
      email: string | null;
      phone: string | null;
      amount: number | null;
      currency: string | null;
    };

export type ParseResult = { ok: true; event: FunnelEvent } | { ok: false; error: string };

const KINDS: readonly string[] = ['contact_created', 'contact_updated', 'purchase_created'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Strings as given (trimmed), numbers as their text; anything else (objects, `$`-operators) is refused. */
function text(v: unknown, max: number): string | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (t.length > max) return undefined;
  return t === '' ? null : t;
}

function fail(error: string): ParseResult {
  return { ok: false, error };
}

export function parseFunnelWebhook(body: unknown, bodyError?: string): ParseResult {
  if (bodyError) return fail('Invalid JSON body');
  if (!isObject(body)) return fail('Request body must be a JSON object');
  const type = body.event ?? body.event_type;
  if (type === undefined || type === null) return fail('Missing event type (event or event_type)');
  if (typeof type !== 'string') return fail('Event type must be a string');
  if (type === 'handshake') return { ok: true, event: { kind: 'handshake' } };
  if (!KINDS.includes(type)) return fail(`Unknown event type: ${type.slice(0, 100)}`);

  const contact = isObject(body.contact) ? body.contact : null;
  if (body.contact !== undefined && body.contact !== null && !contact) return fail('contact must be an object');
  const pick = (key: string, legacyKey = key) => (contact && contact[key] !== undefined ? contact[key] : body[legacyKey]);

  const contactId = text(contact ? (contact.id ?? contact.contact_id ?? body.contact_id) : body.contact_id, 200);
  if (contactId === undefined) return fail('contact_id must be a string or a number');
  if (contactId === null) return fail('contact_id is required');

  const funnelId = text(body.funnel_id ?? contact?.funnel_id, 200);
  if (funnelId === undefined) return fail('funnel_id must be a string or a number');

  const rawEmail = text(pick('email'), 320);
  if (rawEmail === undefined) return fail('email must be a string');
  if (rawEmail !== null && !EMAIL.test(rawEmail)) return fail('Invalid email address');

  const phone = text(pick('phone'), 50);
  if (phone === undefined) return fail('phone must be a string');

  if (type === 'purchase_created') {
    const purchase = isObject(body.purchase) ? body.purchase : body;
    const amountRaw = purchase.amount;
    const amount = typeof amountRaw === 'number' && Number.isFinite(amountRaw) ? amountRaw : typeof amountRaw === 'string' && amountRaw.trim() !== '' && Number.isFinite(Number(amountRaw)) ? Number(amountRaw) : null;
    const currency = typeof purchase.currency === 'string' ? purchase.currency.trim().slice(0, 10) || null : null;
    return { ok: true, event: { kind: 'purchase_created', funnelId, contactId, email: rawEmail, phone, amount, currency } };
  }

  if (rawEmail === null) return fail(`email is required for ${type}`);
  const firstName = text(pick('first_name'), 200) ?? null;
  return { ok: true, event: { kind: type as 'contact_created' | 'contact_updated', funnelId, contactId, email: rawEmail, phone, firstName } };
}
