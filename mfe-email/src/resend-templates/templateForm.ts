/** The legacy standalone template form (spec §5 "Standalone template form"). */
import * as yup from 'yup';
import {
  DEFAULT_TEMPLATE_FROM_NAME,
  DEFAULT_TEMPLATE_HTML,
  DEFAULT_TEMPLATE_SUBJECT,
  DEFAULT_TEMPLATE_TYPE,
  TEMPLATE_MESSAGES,
  TEMPLATE_VARIABLES as VARIABLE_NAMES,
  standaloneTemplateSchema,
} from '@act/contracts/src/email-api';
import type { EmailTemplate } from '../email-campaigns/api';
import { isBlankHtml } from '../rich-editor/urls';
import { noDefault } from '../email-templates/rules';

/** The variables listed below the editor, as they are written in content (spec §2, §3). */
export const TEMPLATE_VARIABLES = VARIABLE_NAMES.map((name) => `{{${name}}}`);

export interface LegacyTemplateValues {
  name: string;
  subject: string;
  from_name: string;
  html_content: string;
  active: boolean;
}

/** Spec §5 standalone form: the contracts' rules and messages; an emptied editor counts as no content. */
export const legacyTemplateSchema = standaloneTemplateSchema.pick(['name', 'active']).shape({
  // formik validates an empty field as undefined, which the request schema's defaults would fill in.
  subject: noDefault(standaloneTemplateSchema.fields.subject),
  from_name: noDefault(standaloneTemplateSchema.fields.from_name),
  html_content: yup.string().test('content', TEMPLATE_MESSAGES.standalone.content, (html) => !isBlankHtml(html ?? '')),
});

export function legacyValuesOf(template: EmailTemplate | null): LegacyTemplateValues {
  if (!template) {
    return {
      name: '',
      subject: DEFAULT_TEMPLATE_SUBJECT,
      from_name: DEFAULT_TEMPLATE_FROM_NAME,
      html_content: DEFAULT_TEMPLATE_HTML,
      active: true,
    };
  }
  return {
    name: template.name,
    subject: template.subject ?? '',
    from_name: template.from_name ?? '',
    html_content: template.html_content ?? '',
    active: template.active,
  };
}

export function legacyRequestOf(values: LegacyTemplateValues) {
  return {
    name: values.name.trim(),
    subject: values.subject.trim(),
    from_name: values.from_name.trim(),
    html_content: values.html_content,
    active: values.active,
  };
}

/** A new standalone template: the form's fields with the default type (spec §5). */
export function legacyCreateRequestOf(values: LegacyTemplateValues) {
  return { ...legacyRequestOf(values), type: DEFAULT_TEMPLATE_TYPE };
}

/**
 * The standalone page lists the templates that belong to no campaign, and the orphans: templates of a deleted
 * campaign keep its id (the spec keeps them) and belong to no campaign page, so this page is where they can be
 * edited or deleted. Templates of an existing campaign live on that campaign's page. Without the campaign list (still
 * loading, or it failed) only the campaign-less ones are shown.
 */
export function standaloneTemplates(
  list: readonly EmailTemplate[] | undefined,
  campaignIds?: ReadonlySet<number>,
): EmailTemplate[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(
    (t) => t.campaign_id === null || t.campaign_id === undefined || (campaignIds !== undefined && !campaignIds.has(t.campaign_id)),
  );
}
