/**
 * The texts of the documentation page that other code may rely on (tests, the webhook page).
 * Payload formats follow docs/webhooks.md, which svc-email implements.
 */

/** The events a funnel must send (spec §2 /documentation, step 2). */
export const REQUIRED_EVENTS = ['contact_created', 'contact_updated', 'purchase_created'] as const;

/** The inbound endpoint: this site's origin plus /api/webhook. */
export function webhookEndpoint(origin: string = window.location.origin): string {
  return `${origin}/api/webhook`;
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export const TEST_EXAMPLES = [
  {
    title: 'New format',
    description:
      'An event field and a contact object. Use contact_updated or purchase_created as the event for the other cases.',
    body: pretty({
      event: 'contact_created',
      contact: { id: 'test-contact-1', email: 'customer@example.com', funnel_id: 'your-funnel-id' },
    }),
  },
  {
    title: 'Legacy contact_created',
    description: 'The older flat format: the event type and the contact fields at the top level.',
    body: pretty({
      event_type: 'contact_created',
      funnel_id: 'your-funnel-id',
      contact_id: 'test-contact-1',
      email: 'customer@example.com',
    }),
  },
  {
    title: 'Legacy purchase_created',
    description: 'Marks the contact purchased, so no reminder is sent. Amount and currency describe the order.',
    body: pretty({
      event_type: 'purchase_created',
      funnel_id: 'your-funnel-id',
      contact_id: 'test-contact-1',
      email: 'customer@example.com',
      amount: 49.0,
      currency: 'USD',
    }),
  },
] as const;
