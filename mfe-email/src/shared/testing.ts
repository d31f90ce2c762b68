/**
 * Fixtures for this remote's jsdom tests (imported by *.test.tsx only, never by a page).
 */
import type { Contact, EmailLog, WebhookEvent, WebhookIntegration } from '@act/contracts/src/email-api';
import { ADMIN } from '@act/ui-kit/src/testing';

export const SIGNED_IN = { 'GET /api/user': { json: { ...ADMIN, authenticated: true } } };

export function paged<T>(items: T[], total = items.length, page = 1, pageSize = 25) {
  return { json: { items, total, page, pageSize } };
}

export function contact(over: Partial<Contact> & Pick<Contact, 'id'>): Contact {
  return {
    contact_id: `c-${over.id}`,
    email: `person${over.id}@example.com`,
    created_at: '2026-03-01T10:00:00.000Z',
    remind_at: '2026-03-01T10:30:00.000Z',
    purchased_at: null,
    status: 'pending',
    integration_id: null,
    cart: null,
    reminders_held: null,
    unsubscribed: false,
    ...over,
  };
}

export function log(id: number, email = `person${id}@example.com`): EmailLog {
  return {
    id,
    contact_id: `c-${id}`,
    email,
    timestamp: '2026-03-01T11:00:00.000Z',
    message: `Abandoned cart reminder would be sent to ${email}`,
    status: 'would_send',
    delivery: null,
  };
}

export function event(id: number, type: string, payload = `{"event":"${type}"}`): WebhookEvent {
  return {
    id,
    type: type as WebhookEvent['type'],
    timestamp: '2026-03-01T11:00:00.000Z',
    payload,
    source: 'generic',
    verification: 'unsigned',
    verification_reason: null,
    outcome: 'created',
    integration_id: null,
    event_name: type,
  };
}

export const DEFAULT_INTEGRATION: WebhookIntegration = {
  id: 1,
  name: 'Default Integration',
  funnel_id: 'default',
  active: true,
  reminder_delay: 30,
  resend_template_id: null,
  campaign_id: null,
  checkout_fallback_url: null,
  email_template: null,
  created_at: '2026-02-01T09:00:00.000Z',
  webhook_url: 'http://127.0.0.1:8080/api/webhook/i/defaultKey0123456789abcd',
  signing: { has_secret: false, source: null },
};

export const SHOP_INTEGRATION: WebhookIntegration = {
  ...DEFAULT_INTEGRATION,
  id: 2,
  name: 'Summer Shop',
  funnel_id: 'shop-1',
  reminder_delay: 45,
  resend_template_id: 7,
  campaign_id: 3,
};
