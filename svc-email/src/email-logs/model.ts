import mongoose, { type Connection } from 'mongoose';
import type { EmailLog } from '@act/contracts/src/email-api';
import { iso } from '@act/service-kit';

/** One reminder (or, with live sending, one provider send) for one contact. */
export interface EmailLogDoc {
  id: number;
  /** The funnel's contact id (what the spec's Contact ID column shows). */
  contact_id: string;
  /** Numeric id of the contact, for joins and the "never twice" checks. */
  contact_ref: number;
  email: string;
  timestamp: Date;
  message: string;
  /** `would_send` while live sending is not configured. */
  status: string;
  /** Resend's id of the email this row sent: delivery events find the row by it. */
  message_id?: string | null;
  /** The furthest delivery event Resend reported for it (resend-events). */
  delivery?: EmailDelivery | null;
  delivery_at?: Date | null;
  /** A campaign step's variant this email was (campaign experiments), with the step: its results count deliveries. */
  variant?: string | null;
  template_id?: number | null;
}

/** Resend's delivery events, in the order an email goes through them (a late event never moves a row back). */
export const EMAIL_DELIVERIES = ['delivery_delayed', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type EmailDelivery = (typeof EMAIL_DELIVERIES)[number];

const schema = new mongoose.Schema<EmailLogDoc>(
  {
    id: { type: Number, required: true },
    contact_id: { type: String, required: true },
    contact_ref: { type: Number, required: true },
    email: { type: String, required: true },
    timestamp: { type: Date, required: true },
    message: { type: String, required: true },
    status: { type: String, required: true },
    message_id: { type: String, default: null },
    delivery: { type: String, default: null },
    delivery_at: { type: Date, default: null },
    variant: { type: String, default: undefined },
    template_id: { type: Number, default: undefined },
  },
  { versionKey: false, collection: 'email_logs' },
);
schema.index({ id: 1 }, { unique: true });
// The index on timestamp (newest-first reads) is the retention's TTL index, declared by service-kit's retention.
schema.index({ contact_ref: 1 });
// A campaign experiment's emails per step and variant (delivered and clicked in its results).
schema.index({ template_id: 1, variant: 1 });
// A contact's reminders and Resend's reports on them, newest first (the contact page's timeline).
schema.index({ contact_ref: 1, timestamp: -1, id: -1 });
schema.index({ contact_ref: 1, delivery_at: -1, id: -1 });
schema.index({ message_id: 1 }, { sparse: true });

export function emailLogModel(conn: Connection) {
  return (conn.models.EmailLog as mongoose.Model<EmailLogDoc>) ?? conn.model<EmailLogDoc>('EmailLog', schema);
}

export const EMAIL_LOG_PROJECTION = { _id: 0, id: 1, contact_id: 1, contact_ref: 1, email: 1, timestamp: 1, message: 1, status: 1, delivery: 1 } as const;

export function toEmailLog(d: Pick<EmailLogDoc, 'id' | 'contact_id' | 'email' | 'timestamp' | 'message' | 'status' | 'delivery'> & Partial<Pick<EmailLogDoc, 'contact_ref'>>): EmailLog {
  return {
    id: d.id,
    contact_id: d.contact_id,
    ...(typeof d.contact_ref === 'number' ? { contact_ref: d.contact_ref } : {}),
    email: d.email,
    timestamp: iso(d.timestamp)!,
    message: d.message,
    status: d.status,
    delivery: d.delivery ?? null,
  };
}
