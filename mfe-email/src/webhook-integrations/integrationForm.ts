import {
  DEFAULT_FUNNEL_ID,
  DEFAULT_TEMPLATE_TYPE,
  REMINDER_DELAY_DEFAULT,
  integrationSchema,
  type EmailTemplateSummary,
  type IntegrationRequest,
  type WebhookIntegration,
} from '@act/contracts/src/email-api';

/** What the side sheet edits. '' is "no entry" (an empty number field, no template chosen). */
export interface IntegrationFormValues {
  name: string;
  funnel_id: string;
  reminder_delay: number | '';
  resend_template_id: number | '';
  /** '' = none. */
  checkout_fallback_url: string;
  active: boolean;
}

/**
 * Section 5: name and funnel_id required, reminder_delay a number from 1 to 720: the contracts' rules,
 * the ones svc-email applies, with the spec's messages.
 */
export const integrationFormSchema = integrationSchema.pick(['name', 'funnel_id', 'reminder_delay', 'active', 'checkout_fallback_url']);

export const NEW_INTEGRATION: IntegrationFormValues = {
  name: '',
  funnel_id: '',
  reminder_delay: REMINDER_DELAY_DEFAULT,
  resend_template_id: '',
  checkout_fallback_url: '',
  active: true,
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
    checkout_fallback_url: integration.checkout_fallback_url ?? '',
    active: integration.active,
  };
}

/**
 * The body of POST and of the full PATCH (section 7: name, funnel_id, active, reminder_delay,
 * resend_template_id, campaign_id). The form has no campaign choice: an edit keeps the stored one.
 */
export function requestOf(values: IntegrationFormValues, editing: WebhookIntegration | null): IntegrationRequest {
  return {
    name: values.name.trim(),
    funnel_id: values.funnel_id.trim(),
    active: values.active,
    reminder_delay: Number(values.reminder_delay),
    resend_template_id: values.resend_template_id === '' ? null : values.resend_template_id,
    campaign_id: editing?.campaign_id ?? null,
    // Sent when there is one to set or one to clear: otherwise the body is exactly the spec's (section 7).
    ...(values.checkout_fallback_url.trim() || editing?.checkout_fallback_url
      ? { checkout_fallback_url: values.checkout_fallback_url.trim() || null }
      : {}),
  };
}

/**
 * The integration form offers templates of the abandoned_cart type only (section 3), and only active ones: an
 * inactive template cannot be used for sending (the spec), so offering it chose a template that never sends
 * (issue 16). A stored inactive choice still shows, as the drawer shows any choice no longer offered.
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
