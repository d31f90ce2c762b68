import { deliveryTitle, keyId, type TimelineEntry } from '@act/contracts/src/timeline';
import type { LogDoc } from '../logs/model';
import type { WebhookEventDoc } from '../webhook-events/model';
import type { OptOutDoc } from '../contacts/model';

/** Statuses Twilio's callbacks set on a message already handed over: the message's own entry says it was sent. */
export const PROVIDER_OUTCOMES = ['delivered', 'failed', 'undelivered'] as const;
const handedOver = (l: LogDoc) => l.message_sid !== null && (PROVIDER_OUTCOMES as readonly string[]).includes(l.status);

/** How each stored status reads on the contact page: what happened, never "sent" for what was not. */
const LOG_TITLES: Record<string, string> = {
  sent: 'SMS sent',
  pending: 'SMS handed to Twilio (queued)',
  queued: 'SMS handed to Twilio (queued)',
  failed: 'SMS not sent: Twilio refused it',
  undelivered: 'SMS not sent',
  skipped_no_link: 'SMS skipped: no checkout link',
  skipped_duplicate: 'SMS skipped: this phone already has a sequence',
  blocked_toll_free: 'SMS not sent: toll-free sender blocked',
  held_blackout: 'SMS held by the blackout',
  held_frequency_cap: 'SMS held by the frequency cap',
  would_send: 'SMS simulated (nothing sent)',
  // What became of the sequence itself; the row's message says why (the exit rule's reason).
  sequence_restarted: 'SMS sequence started again from its first text',
  sequence_exited: 'SMS sequence ended',
};

const PROVIDER_TITLES: Record<string, string> = {
  delivered: 'Twilio: delivered',
  failed: 'Twilio: failed',
  undelivered: 'Twilio: undelivered',
};

export function logEntry(l: LogDoc): TimelineEntry {
  const step = l.sequence_order ? ` (step ${l.sequence_order})` : '';
  const held = (l.status === 'held_blackout' || l.status === 'held_frequency_cap') && l.held_until ? ` until ${new Date(l.held_until).toISOString()}` : '';
  const title = handedOver(l) ? 'SMS sent' : (LOG_TITLES[l.status] ?? `SMS ${l.status}`);
  // The control group's entry says only that, so no one reads it as a failure.
  if (l.status === 'held_out') return { key: `sms.log:${keyId(l.id)}`, at: l.timestamp.toISOString(), side: 'sms', kind: 'message', title: 'held out (control group)', status: l.status, detail: l.message, ref: { collection: 'sms_logs', id: l.id } };
  const variant = l.variant ? `, variant ${l.variant}` : '';
  return {
    key: `sms.log:${keyId(l.id)}`,
    at: l.timestamp.toISOString(),
    side: 'sms',
    kind: 'message',
    title: `${title}${held}${step}${variant}`,
    status: handedOver(l) ? 'sent' : l.status,
    // A skip or refusal says why; a message sent says what.
    detail: !handedOver(l) && l.error_message ? l.error_message : l.message,
    ref: { collection: 'sms_logs', id: l.id },
  };
}

/** Twilio's last word on a message it took (its status callbacks set it on the log row). */
export function providerEntry(l: LogDoc): TimelineEntry | null {
  if (!handedOver(l)) return null;
  return {
    key: `sms.provider:${keyId(l.id)}`,
    at: l.updated_at.toISOString(),
    side: 'sms',
    kind: 'provider',
    title: PROVIDER_TITLES[l.status] ?? `Twilio: ${l.status}`,
    status: l.status,
    detail: l.error_message ?? `For the SMS of ${l.timestamp.toISOString()}`,
    ref: { collection: 'sms_logs', id: l.id },
  };
}

export function deliveryEntry(e: WebhookEventDoc): TimelineEntry {
  return {
    key: `sms.delivery:${keyId(e.id)}`,
    at: new Date(e.timestamp).toISOString(),
    side: 'sms',
    kind: 'delivery',
    title: deliveryTitle(e.outcome, 'sms'),
    status: e.type,
    detail: e.verification_reason ?? (e.event_name ? `Event ${e.event_name}` : null),
    source: e.source ?? 'generic',
    verification: e.verification ?? 'unsigned',
    ref: { collection: 'sms_webhook_events', id: e.id },
  };
}

export function optOutEntry(o: OptOutDoc): TimelineEntry {
  return {
    key: `sms.optout:${o.phone.replace(/[^\w+-]/g, '')}`,
    at: o.opted_out_at.toISOString(),
    side: 'sms',
    kind: 'opt_out',
    title: `Opted out of SMS (replied ${o.keyword})`,
    status: o.keyword,
    detail: null,
    ref: null,
  };
}
