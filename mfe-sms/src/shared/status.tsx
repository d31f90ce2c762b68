import { SMS_CONTACT_STATUS_LABELS, type SmsContactStatus } from '@act/contracts/src/sms-api';
import { Badge, type Tone } from './ui';

const CONTACT_TONES: Record<SmsContactStatus, Tone> = {
  pending: 'warning',
  sent: 'primary',
  purchased: 'success',
  abandoned: 'neutral',
  skipped_duplicate: 'secondary',
  error: 'error',
  opted_out: 'neutral',
};

export function contactStatusLabel(status: string): string {
  return SMS_CONTACT_STATUS_LABELS[status as SmsContactStatus] ?? status;
}

export function ContactStatusBadge({ status }: { status: string }) {
  return <Badge label={contactStatusLabel(status)} tone={CONTACT_TONES[status as SmsContactStatus] ?? 'neutral'} />;
}

/**
 * Log statuses as shown: failed and undelivered are both 'Failed' (spec section 4); the two statuses the
 * sequence writes when it does not send get their own names.
 */
const LOG_LABELS: Record<string, { label: string; tone: Tone }> = {
  sent: { label: 'Sent', tone: 'primary' },
  delivered: { label: 'Delivered', tone: 'success' },
  failed: { label: 'Failed', tone: 'error' },
  undelivered: { label: 'Failed', tone: 'error' },
  pending: { label: 'Pending', tone: 'warning' },
  queued: { label: 'Queued', tone: 'warning' },
  skipped_duplicate: { label: 'Duplicate Blocked', tone: 'secondary' },
  blocked_toll_free: { label: 'Toll-free Blocked', tone: 'neutral' },
  skipped_no_link: { label: 'Skipped: no checkout link', tone: 'neutral' },
  held_blackout: { label: 'Held (blackout)', tone: 'warning' },
  held_frequency_cap: { label: 'Held (frequency cap)', tone: 'warning' },
  // The campaign's control group: no text by design, not a failure.
  held_out: { label: 'Held out (control group)', tone: 'neutral' },
  // A campaign's rules at work (a changed cart, a campaign of higher priority, a checkout paid elsewhere): no text.
  sequence_restarted: { label: 'Sequence restarted', tone: 'info' },
  sequence_exited: { label: 'Sequence ended', tone: 'neutral' },
};

export function logStatusLabel(status: string): string {
  return LOG_LABELS[status]?.label ?? status;
}

export function LogStatusBadge({ status }: { status: string }) {
  const s = LOG_LABELS[status] ?? { label: status, tone: 'neutral' as Tone };
  return <Badge label={s.label} tone={s.tone} title={status === 'undelivered' ? 'undelivered' : undefined} />;
}

/** Known webhook event types get their own colour and name; any other type a generic grey badge (section 4). */
const EVENT_TYPES: Record<string, { label: string; tone: Tone }> = {
  contact: { label: 'Contact', tone: 'primary' },
  purchase: { label: 'Purchase', tone: 'success' },
  sms_delivery: { label: 'SMS Delivery', tone: 'info' },
  sms_reply: { label: 'SMS Reply', tone: 'secondary' },
};
export const KNOWN_EVENT_TYPES = Object.keys(EVENT_TYPES);

export function eventTypeLabel(type: string): string {
  return EVENT_TYPES[type]?.label ?? type;
}

export function EventTypeBadge({ type }: { type: string }) {
  const t = EVENT_TYPES[type];
  return t ? <Badge label={t.label} tone={t.tone} /> : <Badge label={type} tone="neutral" variant="outlined" />;
}
