import mongoose, { type Connection } from 'mongoose';
import type { EmailTemplate, EmailTemplateSummary } from '@act/contracts/src/email-api';
import { iso } from '@act/service-kit';

/** An email template (spec section 3): standalone (legacy page) or a step of a campaign's sequence. */
export interface EmailTemplateDoc {
  id: number;
  name: string;
  subject: string;
  from_name: string;
  /** Sanitised HTML with {{contactEmail}} and {{recoveryUrl}} placeholders. */
  html_content: string;
  /** `abandoned_cart` by default, the only type integrations offer. */
  type: string;
  /** Only active templates are used for sending. */
  active: boolean;
  campaign_id: number | null;
  /** Position within the campaign's sequence (1-based). */
  template_order: number;
  /** Hours after the previous step (0 for the first). */
  delay_hours: number;
  created_at: Date;
  updated_at: Date;
}

const schema = new mongoose.Schema<EmailTemplateDoc>(
  {
    id: { type: Number, required: true },
    name: { type: String, required: true },
    subject: { type: String, default: 'Your cart is waiting!' },
    from_name: { type: String, default: 'Cart Reminders' },
    html_content: { type: String, default: '' },
    type: { type: String, default: 'abandoned_cart' },
    active: { type: Boolean, default: true },
    campaign_id: { type: Number, default: null },
    template_order: { type: Number, default: 1 },
    delay_hours: { type: Number, default: 0 },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'email_templates' },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ campaign_id: 1, template_order: 1 });

export function emailTemplateModel(conn: Connection) {
  return (conn.models.EmailTemplate as mongoose.Model<EmailTemplateDoc>) ?? conn.model<EmailTemplateDoc>('EmailTemplate', schema);
}

export function toTemplateSummary(d: Pick<EmailTemplateDoc, 'id' | 'name' | 'active' | 'type'>): EmailTemplateSummary {
  return { id: d.id, name: d.name, active: d.active, type: d.type };
}

export function toTemplate(d: EmailTemplateDoc): EmailTemplate {
  return {
    id: d.id,
    name: d.name,
    subject: d.subject,
    from_name: d.from_name,
    html_content: d.html_content,
    type: d.type,
    active: d.active,
    campaign_id: d.campaign_id ?? null,
    template_order: d.template_order,
    delay_hours: d.delay_hours,
    created_at: iso(d.created_at)!,
  };
}
