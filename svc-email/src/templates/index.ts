export { emailTemplateModel, toTemplate, toTemplateSummary, type EmailTemplateDoc } from './model';
export { TemplatesService, TEMPLATE_SEQUENCE_SORT } from './service';
export { templatesRouter, type TestSender } from './routes';
export { sanitizeTemplateHtml } from './sanitize';
