import { deliveryTitle, keyId, type TimelineEntry } from '@act/contracts/src/timeline';
import type { EmailLogDoc } from '../email-logs/model';
import type { WebhookEventDoc } from '../webhook-events/model';
import type { UnsubscribeDoc } from '../unsubscribe/model';

/** How each stored reminder status reads on the contact page: what happened, never "sent" for what was not. */
const LOG_TITLES: Record<string, string> = {
  sent: 'Reminder email sent',
  would_send: 'Reminder email simulated (live sending off: nobody received it)',
  unsubscribed: 'Reminder email not sent: the address is unsubscribed',
  failed: 'Reminder email failed',
  skipped_no_link: 'Reminder email skipped: no checkout link',
  held: 'Reminder email held',
  pending: 'Reminder email waiting to be sent',
  // A contact of the campaign's control group: said as it is, so no one reads it as a failure.
  held_out: 'held out (control group)',
  // What became of the flow itself; the row's message says why (the exit rule's reason).
  sequence_restarted: 'Email sequence started again from its first email',
  sequence_exited: 'Email sequence ended',
};

const PROVIDER_TITLES: Record<string, string> = {
  delivery_delayed: 'Resend: delivery delayed',
  delivered: 'Resend: delivered',
  opened: 'Resend: opened',
  clicked: 'Resend: link clicked',
  bounced: 'Resend: bounced',
  complained: 'Resend: marked as spam',
};

const UNSUBSCRIBE_TITLES: Record<string, string> = {
  page: 'Unsubscribed on the unsubscribe page',
  one_click: 'Unsubscribed with the one-click link',
  admin: 'Added to the unsubscribe list by staff',
  suppressed: 'Unsubscribed: Resend reported a bounce or spam complaint',
};

export function logEntry(l: EmailLogDoc): TimelineEntry {
  return {
    key: `email.log:${keyId(l.id)}`,
    at: l.timestamp.toISOString(),
    side: 'email',
    kind: 'message',
    title: LOG_TITLES[l.status] ?? `Reminder email: ${l.status}`,
    status: l.status,
    detail: l.message,
    ref: { collection: 'email_logs', id: l.id },
  };
}

/** Resend's furthest report on the message (the log keeps one), at the time it came. */
export function providerEntry(l: EmailLogDoc): TimelineEntry | null {
  if (!l.delivery || !l.delivery_at) return null;
  return {
    key: `email.provider:${keyId(l.id)}`,
    at: l.delivery_at.toISOString(),
    side: 'email',
    kind: 'provider',
    title: PROVIDER_TITLES[l.delivery] ?? `Resend: ${l.delivery}`,
    status: l.delivery,
    detail: `For the reminder of ${l.timestamp.toISOString()}`,
    ref: { collection: 'email_logs', id: l.id },
  };
}

export function deliveryEntry(e: WebhookEventDoc): TimelineEntry {
  return {
    key: `email.delivery:${keyId(e.id)}`,
    at: e.timestamp.toISOString(),
    side: 'email',
    kind: 'delivery',
    title: deliveryTitle(e.outcome, 'email'),
    status: e.type,
    detail: e.verification_reason ?? (e.event_name ? `Event ${e.event_name}` : null),
    source: e.source ?? 'generic',
    verification: e.verification ?? 'unsigned',
    ref: { collection: 'webhook_events', id: e.id },
  };
}

export function unsubscribeEntry(u: UnsubscribeDoc): TimelineEntry {
  return {
    key: `email.unsubscribe:${keyId(u.id)}`,
    at: u.unsubscribed_at.toISOString(),
    side: 'email',
    kind: 'unsubscribe',
    title: UNSUBSCRIBE_TITLES[u.source] ?? 'Unsubscribed',
    status: u.source,
    detail: u.reason,
    ref: null,
  };
}
