import {
  DEFAULT_FUNNEL_ID,
  DEFAULT_TEMPLATE_TYPE,
  REMINDER_DELAY_DEFAULT,
  integrationSchema,
  type EmailCampaign,
  type EmailTemplateSummary,
  type IntegrationRequest,
  type WebhookIntegration,
} from '@act/contracts/src/email-api';

/** Which sides a new integration is created on: one record per side, as the specification has them. */
export type Channels = 'email' | 'sms' | 'both';
export const CHANNEL_CHOICES: { value: Channels; label: string }[] = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
  { value: 'both', label: 'Email and SMS' },
];
export const includesEmail = (c: Channels) => c !== 'sms';
export const includesSms = (c: Channels) => c !== 'email';

/** What the side sheet edits. '' is "no entry" (an empty number field, no template chosen). */
export interface IntegrationFormValues {
  name: string;
  funnel_id: string;
  reminder_delay: number | '';
  resend_template_id: number | '';
  /** The email campaign whose active templates, in order, are the sequence; '' = none (the single template). */
  campaign_id: number | '';
  /** '' = none. */
  checkout_fallback_url: string;
  active: boolean;
  /** A new integration only: the sides it is created on. */
  channels: Channels;
  /** With SMS: the SMS campaign of the SMS integration; '' = 'No Campaign'. */
  sms_campaign_id: number | '';
}

/**
 * Section 5: name and funnel_id required, reminder_delay a number from 1 to 720: the contracts' rules,
 * the ones svc-email applies, with the spec's messages.
 */
export const integrationFormSchema = integrationSchema.pick([
  'name',
  'funnel_id',
  'reminder_delay',
  'active',
  'checkout_fallback_url',
]);

export const NEW_INTEGRATION: IntegrationFormValues = {
  name: '',
  funnel_id: '',
  reminder_delay: REMINDER_DELAY_DEFAULT,
  resend_template_id: '',
  campaign_id: '',
  checkout_fallback_url: '',
  active: true,
  channels: 'email',
  sms_campaign_id: '',
};

export function isDefaultIntegration(integration: Pick<WebhookIntegration, 'funnel_id'> | null | undefined): boolean {
  return integration?.funnel_id === DEFAULT_FUNNEL_ID;
}

export function formValuesOf(integration: WebhookIntegration | null): IntegrationFormValues {
  if (!integration) return NEW_INTEGRATION;
  return {
    name: integration.name,
    funnel_id: integration.funnel_id,
    reminder_delay: integration.reminder_delay,
    resend_template_id: integration.resend_template_id ?? '',
    campaign_id: integration.campaign_id ?? '',
    checkout_fallback_url: integration.checkout_fallback_url ?? '',
    active: integration.active,
    channels: 'email',
    sms_campaign_id: '',
  };
}

/** The body of POST and of the full PATCH (section 7: name, funnel_id, active, reminder_delay, resend_template_id, campaign_id). */
export function requestOf(values: IntegrationFormValues, editing: WebhookIntegration | null): IntegrationRequest {
  return {
    name: values.name.trim(),
    funnel_id: values.funnel_id.trim(),
    active: values.active,
    reminder_delay: Number(values.reminder_delay),
    resend_template_id: values.resend_template_id === '' ? null : values.resend_template_id,
    campaign_id: values.campaign_id === '' ? null : values.campaign_id,
    // Sent when there is one to set or one to clear: otherwise the body is exactly the spec's (section 7).
    ...(values.checkout_fallback_url.trim() || editing?.checkout_fallback_url
      ? { checkout_fallback_url: values.checkout_fallback_url.trim() || null }
      : {}),
  };
}

/**
 * The integration form offers templates of the abandoned_cart type only (section 3), and only active ones: an
 * inactive template cannot be used for sending (the spec), so offering it would let the form choose a template
 * that never sends. A stored inactive choice still shows, as the drawer shows any choice no longer offered.
 */
export function templateChoices(templates: readonly EmailTemplateSummary[] | undefined): EmailTemplateSummary[] {
  return (templates ?? []).filter(
    (t) => (t.type || DEFAULT_TEMPLATE_TYPE) === DEFAULT_TEMPLATE_TYPE && t.active !== false,
  );
}

/** A card's template line: the template's name, else 'Template ID: n'; null when none is chosen. */
export function templateLabel(
  id: number | null,
  templates: readonly EmailTemplateSummary[] | undefined,
): string | null {
  if (id === null) return null;
  return templates?.find((t) => t.id === id)?.name ?? `Template ID: ${id}`;
}

/**
 * The SMS side's POST body for the same funnel (its section 7: name, funnel_id, sms_campaign_id, reminder_delay,
 * active): one form, two records.
 */
export interface SmsIntegrationBody {
  name: string;
  funnel_id: string;
  sms_campaign_id: number | null;
  reminder_delay: number;
  active: boolean;
  checkout_fallback_url?: string;
}

export function smsRequestOf(values: IntegrationFormValues): SmsIntegrationBody {
  const fallback = values.checkout_fallback_url.trim();
  return {
    name: values.name.trim(),
    funnel_id: values.funnel_id.trim(),
    sms_campaign_id: values.sms_campaign_id === '' ? null : values.sms_campaign_id,
    reminder_delay: Number(values.reminder_delay),
    active: values.active,
    ...(fallback ? { checkout_fallback_url: fallback } : {}),
  };
}

/**
 * The campaign choice offers active campaigns (an inactive one sends nothing); a stored inactive or deleted one
 * still shows, as the template choice does.
 */
export function campaignChoices(campaigns: readonly EmailCampaign[] | undefined): EmailCampaign[] {
  return (campaigns ?? []).filter((c) => c.active);
}

/** A card's campaign: its name, else 'Campaign ID: n' (deleted, or not loaded); null when none is attached. */
export function campaignLabel(id: number | null, campaigns: readonly EmailCampaign[] | undefined): string | null {
  if (id === null) return null;
  return campaigns?.find((c) => c.id === id)?.name ?? `Campaign ID: ${id}`;
}
