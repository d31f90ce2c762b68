/** Display and form rules of /email-templates/{campaignId} (spec §2, §5, §9). */
import * as yup from 'yup';
import {
  CAMPAIGN_TEMPLATE_FROM_NAME,
  DELAY_HOURS_MESSAGE,
  TEMPLATE_ORDER_MESSAGE,
  FIRST_TEMPLATE_DELAY_HOURS,
  LATER_TEMPLATE_DELAY_HOURS,
  TEMPLATE_MESSAGES,
  campaignTemplateSchema,
} from '@act/contracts/src/email-api';
import { isBlankHtml } from '../rich-editor/urls';
import type { EmailTemplate } from '../email-campaigns/api';

/**
 * Spec §2: the campaign id is parsed as an integer; 0 or less (or not a number) disables the loads.
 * Returns the id, or null when the loads stay off.
 */
export function parseCampaignId(param: string | undefined): number | null {
  const id = Number.parseInt(param ?? '', 10);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function plural(n: number, unit: 'hour' | 'day'): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Two decimals at most, so 1.5 h stays "1.5 hours" and float noise never shows. */
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Spec §9 delay display: 'No delay' for 0; hours (singular or plural) below 24; otherwise days and the
 * remaining hours ("1 day", "2 days 3 hours").
 */
export function delayLabel(hours: number | null | undefined): string {
  const h = Number(hours);
  if (!Number.isFinite(h) || h <= 0) return 'No delay';
  if (h < 24) return plural(round(h), 'hour');
  const days = Math.floor(h / 24);
  const rest = round(h - days * 24);
  return rest > 0 ? `${plural(days, 'day')} ${plural(rest, 'hour')}` : plural(days, 'day');
}

/** The campaign's sequence: template_order ascending, then oldest first. */
export function inSequence(templates: readonly EmailTemplate[]): EmailTemplate[] {
  return [...templates].sort((a, b) => a.template_order - b.template_order || a.id - b.id);
}

/** Spec §9: a new template comes after the last one: order 1 or highest + 1; delay 0 h first, 24 h later. */
export function nextTemplateDefaults(templates: readonly EmailTemplate[] | undefined): {
  template_order: number;
  delay_hours: number;
} {
  const list = templates ?? [];
  if (list.length === 0) return { template_order: 1, delay_hours: FIRST_TEMPLATE_DELAY_HOURS };
  const highest = Math.max(...list.map((t) => Number(t.template_order) || 0));
  return { template_order: highest + 1, delay_hours: LATER_TEMPLATE_DELAY_HOURS };
}

/** Spec §9: the campaign page's default from name. */
export const DEFAULT_CAMPAIGN_FROM_NAME = CAMPAIGN_TEMPLATE_FROM_NAME;

export interface TemplateFormValues {
  name: string;
  subject: string;
  from_name: string;
  html_content: string;
  template_order: number | '';
  delay_hours: number | '';
  active: boolean;
}

/** A field of a request schema without its default: in a form, an emptied field must fail `required`. */
export function noDefault(field: unknown): yup.StringSchema<string | undefined> {
  return (field as yup.StringSchema<string | undefined>).default(undefined);
}

/**
 * Spec §5 campaign template form: the contracts' rules (the ones svc-email applies), with order and delay
 * required in the form, and content that shows nothing (an emptied editor's "<p></p>") counted as missing.
 */
export const templateFormSchema = campaignTemplateSchema
  .pick(['name', 'subject', 'from_name', 'template_order', 'delay_hours', 'active'])
  .shape({
    html_content: yup.string().test('content', TEMPLATE_MESSAGES.campaign.content, (html) => !isBlankHtml(html ?? '')),
    // formik validates an empty field as undefined, which the request schema's defaults would fill in.
    subject: noDefault(campaignTemplateSchema.fields.subject),
    from_name: noDefault(campaignTemplateSchema.fields.from_name),
    template_order: (campaignTemplateSchema.fields.template_order as yup.NumberSchema<number | undefined>).required(
      TEMPLATE_ORDER_MESSAGE,
    ),
    delay_hours: (campaignTemplateSchema.fields.delay_hours as yup.NumberSchema<number | undefined>).required(
      DELAY_HOURS_MESSAGE,
    ),
  });

export function formValuesOf(
  template: EmailTemplate | null,
  siblings: readonly EmailTemplate[] | undefined,
): TemplateFormValues {
  if (template) {
    return {
      name: template.name,
      subject: template.subject,
      from_name: template.from_name,
      html_content: template.html_content ?? '',
      template_order: template.template_order,
      delay_hours: template.delay_hours,
      active: template.active,
    };
  }
  return {
    name: '',
    subject: '',
    from_name: DEFAULT_CAMPAIGN_FROM_NAME,
    html_content: '',
    ...nextTemplateDefaults(siblings),
    active: true,
  };
}

/** The request fields of the form (trimmed, numbers as numbers). */
export function requestFieldsOf(values: TemplateFormValues) {
  return {
    name: values.name.trim(),
    subject: values.subject.trim(),
    from_name: values.from_name.trim(),
    html_content: values.html_content,
    template_order: Number(values.template_order),
    delay_hours: Number(values.delay_hours),
    active: values.active,
  };
}

/** PATCH sends the changed template fields only (spec §7). */
export function changedFields<T extends Record<string, unknown>>(next: T, before: Partial<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) if (next[key] !== before[key]) out[key] = next[key];
  return out;
}
