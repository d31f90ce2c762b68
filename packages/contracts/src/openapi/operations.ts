/**
 * Which service answers which /api call, with which rules and answers. The request bodies are the yup schemas the
 * handlers validate with and the answers are the types the handlers return (both converted by generate.ts, never
 * copied); this table only says which goes where. The route walk of the e2e suite fails when a service registers a
 * route this table does not name.
 */
import type { AnySchema } from 'yup';
import { changePasswordSchema, createUserSchema, loginSchema, profileSchema, resetPasswordSchema, updateUserSchema } from '../auth';
import {
  campaignRequestSchema,
  integrationPatchRequestSchema,
  integrationRequestSchema,
  quickAddUnsubscribeRequestSchema,
  reminderDelayRequestSchema,
  removeUnsubscribeRequestSchema,
  resendConfigRequestSchema,
  templatePatchRequestSchema,
  templateRequestSchema,
  testEmailRequestSchema,
  unsubscribeRequestSchema,
} from '../email-api';
import { markPurchasedRequestSchema } from '../email-api';
import {
  markPurchasedSchema,
  smsCampaignSchema,
  smsIntegrationSchema,
  smsStatsQuerySchema,
  smsTemplateSchema,
  twilioConfigSchema,
  twilioTestSmsSchema,
} from '../sms-api';
import { integrationSigningPatchSchema, testDeliveryRequestSchema, webhookSigningSettingsSchema } from '../webhook-signing';
import { privacyRequestSchema } from '../privacy';
import { revenueSettingsSchema } from '../revenue-api';
import { emailTimingSettingsSchema } from '../timing';
import { campaignExperimentSchema } from '../experiments-api';
import { emailPreviewRequestSchema, smsPreviewRequestSchema, smsTemplateTestRequestSchema } from '../template-preview';
import { incentiveOperations } from './incentive-operations';

export type ServiceName = 'svc-auth' | 'svc-email' | 'svc-sms';
/**
 * `public`: called by senders, providers and mail clients (no session, no browser checks); `anyone`: no session
 * needed, but a browser call (the sign-in calls: the gateway's same-origin checks apply); `user`: signed in;
 * `admin`: an admin.
 */
export type Access = 'public' | 'anyone' | 'user' | 'admin';

export interface HeaderParam {
  name: string;
  description: string;
}

export interface Body {
  /** A yup schema (converted) or the name of a type of shapes.ts. */
  schema: AnySchema | string;
  contentType?: string;
  /** Examples by name: `fixtures:<sender>` takes every fixture of packages/sources/src/<sender>/fixtures. */
  examples?: string[];
  required?: boolean;
}

export interface Answer {
  /** A type of shapes.ts; absent: no body. */
  shape?: string;
  description: string;
  contentType?: string;
}

export interface Operation {
  service: ServiceName;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/api/users/{id}`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  /** Query parameters: a type of shapes.ts or a yup object schema. */
  query?: AnySchema | string;
  body?: Body;
  headers?: HeaderParam[];
  responses: Record<number, Answer | string>;
}

const ok = (shape: string, description = 'OK'): Answer => ({ shape, description });

/** The signature headers of every accepted sender (docs/webhooks.md): which one applies depends on the sender. */
export const WEBHOOK_HEADERS: HeaderParam[] = [
  { name: 'X-Signature', description: "The spec's formats, signed: `sha256=<hex>`, HMAC-SHA256 of `{timestamp}.{raw body}` with the integration's secret." },
  { name: 'X-Signature-Timestamp', description: "The spec's formats, signed: unix seconds; refused when more than 300 s away." },
  { name: 'X-Webhook-Id', description: "The spec's formats: the sender's delivery id; a repeat is answered as a duplicate with no effect." },
  { name: 'X-Webhook-ClickFunnels-Signature', description: 'ClickFunnels 2.0: hex HMAC-SHA256 of `{timestamp}.{raw body}` with the endpoint\'s webhook secret.' },
  { name: 'X-Webhook-ClickFunnels-Timestamp', description: 'ClickFunnels 2.0: unix seconds; refused when more than 600 s away.' },
  { name: 'X-Shopify-Topic', description: 'Shopify: `checkouts/create`, `checkouts/update` or `orders/create` (others are ignored).' },
  { name: 'X-Shopify-Hmac-Sha256', description: "Shopify: base64 HMAC-SHA256 of the raw body with the app's client secret." },
  { name: 'X-Shopify-Webhook-Id', description: 'Shopify: the delivery id; a repeat is answered as a duplicate with no effect.' },
  { name: 'X-Shopify-Shop-Domain', description: 'Shopify: the store (informational).' },
  { name: 'X-Shopify-Api-Version', description: 'Shopify: the API version of the payload (informational).' },
  { name: 'X-Shopify-Triggered-At', description: 'Shopify: when the event happened (informational).' },
  { name: 'Stripe-Signature', description: 'Stripe: `t=<unix>,v1=<hex>[,v1=…]`, HMAC-SHA256 of `{t}.{raw body}` with the endpoint secret; refused when older than 300 s (settable).' },
  { name: 'X-WC-Webhook-Signature', description: "WooCommerce: base64 HMAC-SHA256 of the raw body with the webhook's secret." },
  { name: 'X-WC-Webhook-Topic', description: 'WooCommerce: `order.created` or `order.updated` (others are ignored).' },
  { name: 'X-WC-Webhook-Resource', description: 'WooCommerce: `order` (informational).' },
  { name: 'X-WC-Webhook-Event', description: 'WooCommerce: `created` or `updated` (informational).' },
  { name: 'X-WC-Webhook-Delivery-ID', description: 'WooCommerce: the delivery id; a repeat is answered as a duplicate with no effect.' },
  { name: 'X-WC-Webhook-ID', description: 'WooCommerce: the webhook (informational).' },
  { name: 'X-WC-Webhook-Source', description: "WooCommerce: the shop's home URL (informational)." },
  { name: 'User-Agent', description: 'The sender (`Stripe/1.0 …`, `WooCommerce/<version> Hookshot …`); informational.' },
];

const FUNNEL_BODY: Body = {
  schema: 'FunnelWebhookBody',
  examples: ['fixtures:clickfunnels2', 'fixtures:clickfunnels-classic', 'fixtures:shopify', 'fixtures:stripe', 'fixtures:woocommerce'],
};
const KEY = 'The integration\'s own endpoint key (its `webhook_url`): the delivery belongs to that integration, whatever its body says.';

function funnelWebhook(service: ServiceName, path: string, summary: string, answers: Operation['responses']): Operation {
  return {
    service,
    method: 'post',
    path,
    summary: path.includes('{key}') ? `${summary} (an integration's own URL). ${KEY}` : summary,
    tag: 'Webhooks',
    access: 'public',
    body: FUNNEL_BODY,
    headers: WEBHOOK_HEADERS,
    responses: {
      ...answers,
      401: 'Signed integration: the signature is missing, wrong or stale (recorded as `rejected`).',
      413: 'Body over 1 MB.',
    },
  };
}

const auth: Operation[] = [
  { service: 'svc-auth', method: 'get', path: '/api/user', summary: 'Who is signed in (200 either way).', tag: 'Session', access: 'anyone', responses: { 200: ok('CurrentUserOrSignedOut') } },
  {
    service: 'svc-auth',
    method: 'post',
    path: '/api/login',
    summary: 'Sign in; sets the session cookie `act.sid`. Throttled per address and username.',
    tag: 'Session',
    access: 'anyone',
    body: { schema: loginSchema },
    responses: { 200: ok('CurrentUserDto'), 401: 'Wrong username or password.', 429: 'Too many attempts.' },
  },
  { service: 'svc-auth', method: 'post', path: '/api/logout', summary: 'Sign out (ends the session).', tag: 'Session', access: 'anyone', responses: { 200: ok('MessageDto') } },
  { service: 'svc-auth', method: 'patch', path: '/api/profile', summary: 'Change your own name and email.', tag: 'Profile', access: 'user', body: { schema: profileSchema }, responses: { 200: ok('CurrentUserDto') } },
  {
    service: 'svc-auth',
    method: 'post',
    path: '/api/profile/change-password',
    summary: 'Change your own password.',
    tag: 'Profile',
    access: 'user',
    body: { schema: changePasswordSchema },
    responses: { 200: ok('MessageDto') },
  },
  { service: 'svc-auth', method: 'get', path: '/api/users', summary: 'Every user.', tag: 'Users', access: 'admin', responses: { 200: ok('UserList') } },
  { service: 'svc-auth', method: 'post', path: '/api/users', summary: 'Create a user.', tag: 'Users', access: 'admin', body: { schema: createUserSchema }, responses: { 201: ok('UserDto', 'Created'), 409: 'The username is taken.' } },
  { service: 'svc-auth', method: 'patch', path: '/api/users/{id}', summary: 'Change a user.', tag: 'Users', access: 'admin', body: { schema: updateUserSchema }, responses: { 200: ok('UserDto') } },
  {
    service: 'svc-auth',
    method: 'post',
    path: '/api/users/{id}/reset-password',
    summary: "Set a user's password (ends their sessions).",
    tag: 'Users',
    access: 'admin',
    body: { schema: resetPasswordSchema },
    responses: { 200: ok('MessageDto') },
  },
  { service: 'svc-auth', method: 'delete', path: '/api/users/{id}', summary: 'Delete a user.', tag: 'Users', access: 'admin', responses: { 200: ok('MessageDto') } },
  {
    service: 'svc-auth',
    method: 'get',
    path: '/api/audit-log',
    summary: 'Staff actions of every service, newest first, filtered and paged (docs/privacy.md).',
    tag: 'Audit log',
    access: 'admin',
    query: 'AuditQueryParams',
    responses: { 200: ok('AuditPage') },
  },
  {
    service: 'svc-auth',
    method: 'get',
    path: '/api/audit-log/export.csv',
    summary: 'The filtered audit records as CSV (newest 50,000).',
    tag: 'Audit log',
    access: 'admin',
    query: 'AuditQueryParams',
    responses: { 200: { description: 'CSV with a header row.', contentType: 'text/csv' } },
  },
  { service: 'svc-auth', method: 'get', path: '/api/privacy-requests', summary: 'The latest privacy requests (200), newest first.', tag: 'Privacy', access: 'admin', responses: { 200: ok('PrivacyRequestList') } },
  {
    service: 'svc-auth',
    method: 'post',
    path: '/api/privacy-requests',
    summary:
      'Ask both sides for everything they hold about one email address and/or phone number (kind export), or to erase it (kind erase: anonymised in place, kept on the suppression lists as a salted hash; cannot be undone); each answers over NATS.',
    tag: 'Privacy',
    access: 'admin',
    body: { schema: privacyRequestSchema },
    responses: { 201: ok('PrivacyRequestView', 'Created; each service pending') },
  },
  { service: 'svc-auth', method: 'get', path: '/api/privacy-requests/{id}', summary: 'One request and each side\'s progress.', tag: 'Privacy', access: 'admin', responses: { 200: ok('PrivacyRequestView'), 404: 'No such request.' } },
  {
    service: 'svc-auth',
    method: 'get',
    path: '/api/privacy-requests/{id}/export.json',
    summary: 'The exported document: the request and, per service, each kind of record held (kept 7 days; removed when the person is erased). 404 for an erase request.',
    tag: 'Privacy',
    access: 'admin',
    responses: { 200: ok('PrivacyExport'), 404: 'No such request.' },
  },
];

/** A campaign's experiment (holdout, step variants, automatic winner) and its results (docs/revenue.md). */
function experiments(service: ServiceName, base: string, tag: string, overview: string): Operation[] {
  return [
    {
      service,
      method: 'get',
      path: overview,
      summary: "Incremental revenue over this side's campaigns with a holdout, per currency (the campaigns' figures added, their intervals in quadrature), or how many more recipients the neediest group lacks.",
      tag: 'Revenue',
      access: 'user',
      responses: { 200: ok('IncrementalOverview') },
    },
    { service, method: 'get', path: `${base}/{id}/experiment`, summary: "The campaign's holdout share, its steps' variants, the automatic-winner setting and the winners decided.", tag, access: 'user', responses: { 200: ok('CampaignExperiment') } },
    {
      service,
      method: 'put',
      path: `${base}/{id}/experiment`,
      summary: "Set the campaign's holdout (0-50%) and its steps' variants (2 to 4 per step, shares adding up to 100); winners already decided stay while their variant does.",
      tag,
      access: 'user',
      body: { schema: campaignExperimentSchema },
      responses: { 200: ok('CampaignExperiment'), 400: 'A share, a step or a variant that breaks the rules (named).' },
    },
    {
      service,
      method: 'get',
      path: `${base}/{id}/results`,
      summary: 'Per step variant, the holdout and all reminded contacts: sent, delivered, clicked, purchased within the attribution window, revenue and revenue per recipient with 95% intervals; incremental revenue or how many more recipients are needed; the winner. `format=csv`: one row per variant.',
      tag,
      access: 'user',
      query: 'CampaignResultsQueryParams',
      responses: { 200: ok('CampaignResults') },
    },
  ];
}

function revenue(service: ServiceName, base: string): Operation[] {
  const side = service === 'svc-email' ? 'email side' : 'SMS side';
  return [
    {
      service,
      method: 'get',
      path: `${base}/summary`,
      summary: `Recovered and organic purchases and revenue, per day, integration, campaign and template, and the funnel (${side}; docs/revenue.md). \`format=csv&table=…\` answers one table as CSV.`,
      tag: 'Revenue',
      access: 'user',
      query: 'RevenueQueryParams',
      responses: { 200: ok('RevenueSummary'), 404: 'Unknown integration.' },
    },
    { service, method: 'get', path: `${base}/settings`, summary: `The attribution window (${side}).`, tag: 'Revenue', access: 'user', responses: { 200: ok('RevenueSettings') } },
    {
      service,
      method: 'put',
      path: `${base}/settings`,
      summary: `Set the attribution window (${side}).`,
      tag: 'Revenue',
      access: 'admin',
      body: { schema: revenueSettingsSchema },
      responses: { 200: ok('RevenueSettings') },
    },
  ];
}

const email: Operation[] = [
  funnelWebhook('svc-email', '/api/webhook', 'Funnel webhook, email side: contacts and purchases from any accepted sender.', {
    200: ok('WebhookOkResponse', 'Handled (also: handshake, duplicate delivery, ignored event).'),
    400: 'Malformed JSON, missing fields or an unknown event type (stored as `invalid`).',
  }),
  funnelWebhook('svc-email', '/api/webhook/i/{key}', 'Funnel webhook, email side', {
    200: ok('WebhookOkResponse', 'Handled (also: handshake, duplicate delivery, ignored event).'),
    400: 'Malformed JSON, missing fields or an unknown event type (stored as `invalid`).',
    404: 'Unknown webhook URL (not recorded).',
  }),
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/resend/webhooks',
    summary: "Resend's delivery events (delivered, bounced, complained, opened, clicked, delivery_delayed), verified with the endpoint's Svix secret.",
    tag: 'Provider callbacks',
    access: 'public',
    body: { schema: 'ResendWebhookBody' },
    headers: [
      { name: 'svix-id', description: 'The message id; a repeat is taken once.' },
      { name: 'svix-timestamp', description: 'Unix seconds; refused when more than 5 minutes away.' },
      { name: 'svix-signature', description: '`v1,<base64 HMAC-SHA256>` of `{svix-id}.{svix-timestamp}.{raw body}` with the `whsec_` secret.' },
    ],
    responses: { 200: ok('ResendWebhookResponse'), 401: 'Missing, wrong or stale signature.', 403: 'No webhook secret is configured.' },
  },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/unsubscribe',
    summary: 'Whether an address is on the unsubscribe list (the public unsubscribe page).',
    tag: 'Unsubscribe',
    access: 'public',
    query: unsubscribeRequestSchema.pick(['email']),
    responses: { 200: ok('UnsubscribeCheckResponse'), 429: 'Too many requests from this address.' },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/unsubscribe',
    summary: 'Unsubscribe an address (the public unsubscribe page).',
    tag: 'Unsubscribe',
    access: 'public',
    body: { schema: unsubscribeRequestSchema },
    responses: { 200: ok('UnsubscribeResponse'), 429: 'Too many requests from this address.' },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/unsubscribe/one-click',
    summary: "A mail client's one-click unsubscribe (RFC 8058): body `List-Unsubscribe=One-Click`; the signed token says which address.",
    tag: 'Unsubscribe',
    access: 'public',
    query: 'OneClickQuery',
    body: { schema: 'OneClickBody', contentType: 'application/x-www-form-urlencoded', required: false },
    responses: { 200: ok('UnsubscribeResponse'), 400: 'The link is invalid.', 429: 'Too many requests from this address.' },
  },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/unsubscribe/one-click',
    summary: 'The one-click link opened in a browser: never unsubscribes (link scanners prefetch), redirects to the confirm page.',
    tag: 'Unsubscribe',
    access: 'public',
    query: 'OneClickQuery',
    responses: { 302: 'To `/unsubscribe?email=...` (or `/unsubscribe` for an invalid link).', 429: 'Too many requests from this address.' },
  },
  { service: 'svc-email', method: 'get', path: '/api/direct-unsubscribes', summary: 'The unsubscribe list.', tag: 'Unsubscribe', access: 'admin', responses: { 200: ok('UnsubscribeEntryList') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/email-unsubscribes/quick-add',
    summary: 'Add an address to the unsubscribe list.',
    tag: 'Unsubscribe',
    access: 'admin',
    body: { schema: quickAddUnsubscribeRequestSchema },
    responses: { 201: ok('QuickAddUnsubscribeResponse', 'Added'), 200: ok('QuickAddUnsubscribeResponse', 'Already on the list') },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/email-unsubscribes/remove',
    summary: 'Remove an entry of the unsubscribe list.',
    tag: 'Unsubscribe',
    access: 'admin',
    body: { schema: removeUnsubscribeRequestSchema },
    responses: { 200: ok('RemoveUnsubscribeResponse'), 404: 'No such entry.', 409: 'The entry stands for an erased person (a salted hash): it stays.' },
  },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/contacts',
    summary: 'Email contacts: the whole list, or one page with `?page=`.',
    tag: 'Email contacts',
    access: 'user',
    query: 'ContactListQueryParams',
    responses: { 200: ok('ContactListOrPage', 'An array without `page`, a page with it.') },
  },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/contacts/{id}/timeline',
    summary:
      "An email contact's page: the contact, the same person's contacts on both sides, and one timeline of everything about them on both channels, newest first. Answered by the gateway, which asks svc-email for the contact's part and svc-sms for the same person's (each over its internal route), and svc-auth for the staff actions on the person's contacts (admins only), and merges them.",
    tag: 'Email contacts',
    access: 'user',
    query: 'TimelineQueryParams',
    responses: { 200: ok('TimelinePage', '`next` is the cursor of the next page, null on the last; `unavailable` names a side that did not answer.'), 400: 'A `limit` or `before` this API did not write.', 404: 'No such contact.', 503: 'svc-email did not answer.' },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/contacts/mark-purchased',
    summary: 'Mark a contact purchased (by numeric `id` or funnel `contact_id`).',
    tag: 'Email contacts',
    access: 'user',
    body: { schema: markPurchasedRequestSchema },
    responses: { 200: ok('MarkPurchasedResponse'), 404: 'No such contact.' },
  },
  { service: 'svc-email', method: 'get', path: '/api/email-logs', summary: 'Email logs: the whole list, or one page with `?page=`.', tag: 'Email logs', access: 'user', query: 'ListQueryParams', responses: { 200: ok('EmailLogListOrPage') } },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/webhook-events',
    summary: 'Email-side webhook deliveries: the whole list, or one page with `?page=`.',
    tag: 'Webhook events',
    access: 'user',
    query: 'WebhookEventListQueryParams',
    responses: { 200: ok('WebhookEventListOrPage') },
  },
  { service: 'svc-email', method: 'get', path: '/api/webhook-integrations', summary: 'Email webhook integrations.', tag: 'Email integrations', access: 'user', responses: { 200: ok('WebhookIntegrationList') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/webhook-integrations',
    summary: 'Create an email webhook integration.',
    tag: 'Email integrations',
    access: 'user',
    body: { schema: integrationRequestSchema },
    responses: { 201: ok('WebhookIntegration', 'Created'), 409: 'Another integration has this funnel id.' },
  },
  {
    service: 'svc-email',
    method: 'patch',
    path: '/api/webhook-integrations/{id}',
    summary: 'Change an email webhook integration; `webhook_secret` and `webhook_source` (admin only) set its signing.',
    tag: 'Email integrations',
    access: 'user',
    body: { schema: integrationPatchRequestSchema.concat(integrationSigningPatchSchema) },
    responses: { 200: ok('WebhookIntegration'), 403: 'Signing fields by a non-admin.', 409: 'Another integration has this funnel id.' },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/webhook-integrations/{id}/test-delivery',
    summary: "Post a sender's sample to the integration's own URL, signed with its secret.",
    tag: 'Email integrations',
    access: 'user',
    body: { schema: testDeliveryRequestSchema, required: false },
    responses: { 200: ok('TestDeliveryResponse') },
  },
  { service: 'svc-email', method: 'post', path: '/api/webhook-integrations/{id}/clear-contacts', summary: "Delete the integration's contacts.", tag: 'Email integrations', access: 'user', responses: { 200: ok('SuccessResponse'), 400: 'The default integration, or a body neither empty nor a JSON object (nothing is deleted).', 403: 'With NODE_ENV=production, a plain user (only admins may).' } },
  { service: 'svc-email', method: 'delete', path: '/api/webhook-integrations/{id}', summary: 'Delete an email webhook integration.', tag: 'Email integrations', access: 'user', responses: { 200: ok('SuccessResponse'), 409: 'It still has contacts: clear them first.' } },
  { service: 'svc-email', method: 'get', path: '/api/settings/reminder-delay', summary: 'The default reminder delay (minutes).', tag: 'Email settings', access: 'user', responses: { 200: ok('ReminderDelayResponse') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/settings/reminder-delay',
    summary: 'Set the default reminder delay (1 to 720 minutes).',
    tag: 'Email settings',
    access: 'user',
    body: { schema: reminderDelayRequestSchema },
    responses: { 200: ok('SetReminderDelayResponse') },
  },
  { service: 'svc-email', method: 'get', path: '/api/settings/timing', summary: "Email's quiet hours (on each shopper's clock) and the account's frequency cap.", tag: 'Email settings', access: 'user', responses: { 200: ok('EmailTimingSettings') } },
  {
    service: 'svc-email',
    method: 'put',
    path: '/api/settings/timing',
    summary: "Set email's quiet hours and the account's frequency cap (the SMS side gets the same cap over NATS).",
    tag: 'Email settings',
    access: 'admin',
    body: { schema: emailTimingSettingsSchema },
    responses: { 200: ok('EmailTimingSettings') },
  },
  { service: 'svc-email', method: 'get', path: '/api/webhook-signing', summary: 'Whether the email side refuses unsigned deliveries.', tag: 'Webhook signing', access: 'user', responses: { 200: ok('WebhookSigningSettings') } },
  {
    service: 'svc-email',
    method: 'put',
    path: '/api/webhook-signing',
    summary: 'Refuse (or accept) unsigned deliveries on the email side.',
    tag: 'Webhook signing',
    access: 'admin',
    body: { schema: webhookSigningSettingsSchema },
    responses: { 200: ok('WebhookSigningSettings') },
  },
  { service: 'svc-email', method: 'get', path: '/api/email/campaigns', summary: 'Email campaigns.', tag: 'Email campaigns', access: 'user', responses: { 200: ok('EmailCampaignList') } },
  { service: 'svc-email', method: 'post', path: '/api/email/campaigns', summary: 'Create an email campaign.', tag: 'Email campaigns', access: 'user', body: { schema: campaignRequestSchema }, responses: { 201: ok('EmailCampaign', 'Created') } },
  { service: 'svc-email', method: 'get', path: '/api/email/campaigns/{id}', summary: 'One email campaign.', tag: 'Email campaigns', access: 'user', responses: { 200: ok('EmailCampaign') } },
  { service: 'svc-email', method: 'put', path: '/api/email/campaigns/{id}', summary: 'Change an email campaign.', tag: 'Email campaigns', access: 'user', body: { schema: campaignRequestSchema }, responses: { 200: ok('EmailCampaign') } },
  { service: 'svc-email', method: 'delete', path: '/api/email/campaigns/{id}', summary: 'Delete an email campaign (its templates are kept, orphaned).', tag: 'Email campaigns', access: 'user', responses: { 200: ok('SuccessResponse') } },
  { service: 'svc-email', method: 'get', path: '/api/resend/templates', summary: 'Email templates.', tag: 'Email templates', access: 'user', responses: { 200: ok('EmailTemplateList') } },
  { service: 'svc-email', method: 'get', path: '/api/resend/templates/campaign/{campaignId}', summary: "A campaign's templates, in order.", tag: 'Email templates', access: 'user', responses: { 200: ok('EmailTemplateList') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/resend/templates',
    summary: 'Create an email template (the campaign message set when `campaign_id` is given).',
    tag: 'Email templates',
    access: 'user',
    body: { schema: templateRequestSchema('standalone') },
    responses: { 201: ok('EmailTemplate', 'Created') },
  },
  {
    service: 'svc-email',
    method: 'patch',
    path: '/api/resend/templates/{id}',
    summary: 'Change an email template (changed fields only).',
    tag: 'Email templates',
    access: 'user',
    body: { schema: templatePatchRequestSchema('standalone') },
    responses: { 200: ok('EmailTemplate') },
  },
  { service: 'svc-email', method: 'delete', path: '/api/resend/templates/{id}', summary: 'Delete an email template.', tag: 'Email templates', access: 'user', responses: { 200: ok('SuccessResponse') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/resend/templates/preview',
    summary: "A template's subject and HTML as one contact would get them (default: the newest contact with a cart, else the newest) or as sample data: the sends' composer (Cart blocks, variables, the contact's recovery link, the one-click unsubscribe link); the code shows as \"(unique code)\" unless `discount_code` is given. Nothing is sent or spent.",
    tag: 'Email templates',
    access: 'user',
    body: { schema: emailPreviewRequestSchema },
    responses: { 200: ok('EmailPreview'), 400: 'No HTML content.', 404: 'No contact with that id.' },
  },
  {
    service: 'svc-email',
    method: 'get',
    path: '/api/resend/templates/preview/contacts',
    summary: 'Contacts a preview may use: by the start of their email address, else the newest (those with a cart first), and the default one.',
    tag: 'Email templates',
    access: 'user',
    query: 'PreviewContactsQueryParams',
    responses: { 200: ok('PreviewContactsResponse') },
  },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/resend/templates/{id}/test',
    summary: 'Send the template to a test address.',
    tag: 'Email templates',
    access: 'user',
    body: { schema: testEmailRequestSchema },
    responses: { 200: ok('TestEmailResponse'), 502: ok('TestEmailResponse', 'The provider refused the send.'), 503: ok('TestEmailResponse', 'Resend is not configured.') },
  },
  { service: 'svc-email', method: 'get', path: '/api/resend/config', summary: 'Whether Resend is configured (never the key).', tag: 'Resend', access: 'user', responses: { 200: ok('ResendConfigStatus') } },
  { service: 'svc-email', method: 'get', path: '/api/resend/status', summary: 'Whether Resend is configured, how many email steps wait for it, and what a page says at the top (Dashboard, Email Campaigns).', tag: 'Resend', access: 'user', responses: { 200: ok('ProviderStatusResponse') } },
  {
    service: 'svc-email',
    method: 'post',
    path: '/api/resend/config',
    summary: 'Store the Resend key, sender and webhook secret (environment values win).',
    tag: 'Resend',
    access: 'admin',
    body: { schema: resendConfigRequestSchema },
    responses: { 200: ok('ResendConfigStatus') },
  },
  { service: 'svc-email', method: 'post', path: '/api/resend/test-connection', summary: 'Check the Resend key.', tag: 'Resend', access: 'user', responses: { 200: ok('ResendConnectionResult') } },
  { service: 'svc-email', method: 'post', path: '/api/test/clear-data', summary: 'Delete every contact, email log and webhook event (test tools).', tag: 'Test tools', access: 'user', responses: { 200: ok('ClearDataResponse'), 400: 'The body is neither empty nor a JSON object (nothing is deleted).', 403: 'With NODE_ENV=production, a plain user (only admins may).' } },
  { service: 'svc-email', method: 'post', path: '/api/test/clear-test-deliveries', summary: "Delete every contact \"Send test delivery\" made on the email side (stored with `test: true`) and their email logs; real contacts are never touched. Audited.", tag: 'Test tools', access: 'user', responses: { 200: ok('ClearTestDeliveriesResponse'), 400: 'The body is neither empty nor a JSON object (nothing is deleted).' } },
  { service: 'svc-email', method: 'post', path: '/api/test/check-abandoned-carts', summary: 'Process every due reminder now (test tools).', tag: 'Test tools', access: 'user', responses: { 200: ok('CheckAbandonedCartsResponse'), 400: 'The body is neither empty nor a JSON object (nothing is processed).', 403: 'With NODE_ENV=production, a plain user (only admins may).' } },
];

const sms: Operation[] = [
  funnelWebhook('svc-sms', '/api/sms/webhook', 'Funnel webhook, SMS side: contacts (with a phone) and purchases from any accepted sender.', {
    200: ok('WebhookOkResponse', 'Handled (also: handshake, duplicate delivery, ignored event).'),
    202: ok('SmsWebhookIgnoredResponse', 'Stored, but no active SMS integration takes it.'),
    400: 'Malformed JSON, missing fields, no funnel id or an unknown event type (stored as `invalid`).',
  }),
  funnelWebhook('svc-sms', '/api/sms/webhook/i/{key}', 'Funnel webhook, SMS side', {
    200: ok('WebhookOkResponse', 'Handled (also: handshake, duplicate delivery, ignored event).'),
    202: ok('SmsWebhookIgnoredResponse', 'Stored, but the integration does not take it.'),
    400: 'Malformed JSON, missing fields or an unknown event type (stored as `invalid`).',
    404: 'Unknown webhook URL (not recorded).',
  }),
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/twilio/webhooks',
    summary: "Twilio's status callbacks and incoming messages (STOP / START replies), verified with the account's auth token.",
    tag: 'Provider callbacks',
    access: 'public',
    body: { schema: 'TwilioCallbackBody', contentType: 'application/x-www-form-urlencoded' },
    headers: [{ name: 'X-Twilio-Signature', description: 'base64 HMAC-SHA1 of the full URL followed by the sorted form fields, with the auth token.' }],
    responses: { 200: { description: 'Empty TwiML `<Response/>`.', contentType: 'text/xml' }, 403: 'Missing or wrong signature, or Twilio not configured.' },
  },
  { service: 'svc-sms', method: 'get', path: '/api/sms/webhook-signing', summary: 'Whether the SMS side refuses unsigned deliveries.', tag: 'Webhook signing', access: 'user', responses: { 200: ok('WebhookSigningSettings') } },
  {
    service: 'svc-sms',
    method: 'put',
    path: '/api/sms/webhook-signing',
    summary: 'Refuse (or accept) unsigned deliveries on the SMS side.',
    tag: 'Webhook signing',
    access: 'admin',
    body: { schema: webhookSigningSettingsSchema },
    responses: { 200: ok('WebhookSigningSettings') },
  },
  { service: 'svc-sms', method: 'get', path: '/api/sms-webhook-integrations', summary: 'SMS webhook integrations.', tag: 'SMS integrations', access: 'user', responses: { 200: ok('SmsIntegrationList') } },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/sms-webhook-integrations',
    summary: 'Create an SMS webhook integration.',
    tag: 'SMS integrations',
    access: 'user',
    body: { schema: smsIntegrationSchema },
    responses: { 201: ok('SmsIntegration', 'Created'), 409: 'Another integration has this funnel id.' },
  },
  {
    service: 'svc-sms',
    method: 'patch',
    path: '/api/sms-webhook-integrations/{id}',
    summary: 'Change an SMS webhook integration; `webhook_secret` and `webhook_source` (admin only) set its signing.',
    tag: 'SMS integrations',
    access: 'user',
    body: { schema: smsIntegrationSchema.partial().concat(integrationSigningPatchSchema) },
    responses: { 200: ok('SmsIntegration'), 403: 'Signing fields by a non-admin.' },
  },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/sms-webhook-integrations/{id}/test-delivery',
    summary: "Post a sender's sample to the integration's own URL, signed with its secret.",
    tag: 'SMS integrations',
    access: 'user',
    body: { schema: testDeliveryRequestSchema, required: false },
    responses: { 200: ok('TestDeliveryResponse') },
  },
  { service: 'svc-sms', method: 'post', path: '/api/sms-webhook-integrations/clear-test-deliveries', summary: "Delete every contact \"Send test delivery\" made on the SMS side (stored with `test: true`) and their SMS logs; real contacts are never touched. Audited.", tag: 'SMS integrations', access: 'user', responses: { 200: ok('SmsClearTestDeliveriesResponse'), 400: 'The body is neither empty nor a JSON object (nothing is deleted).' } },
  { service: 'svc-sms', method: 'delete', path: '/api/sms-webhook-integrations/{id}', summary: 'Delete an SMS webhook integration.', tag: 'SMS integrations', access: 'user', responses: { 200: ok('SmsActionResponse') } },
  { service: 'svc-sms', method: 'get', path: '/api/sms-campaigns', summary: 'SMS campaigns.', tag: 'SMS campaigns', access: 'user', responses: { 200: ok('SmsCampaignList') } },
  { service: 'svc-sms', method: 'post', path: '/api/sms-campaigns', summary: 'Create an SMS campaign.', tag: 'SMS campaigns', access: 'user', body: { schema: smsCampaignSchema }, responses: { 201: ok('SmsCampaign', 'Created') } },
  { service: 'svc-sms', method: 'patch', path: '/api/sms-campaigns/{id}', summary: 'Change an SMS campaign.', tag: 'SMS campaigns', access: 'user', body: { schema: smsCampaignSchema.partial() }, responses: { 200: ok('SmsCampaign') } },
  { service: 'svc-sms', method: 'delete', path: '/api/sms-campaigns/{id}', summary: 'Delete an SMS campaign and its templates.', tag: 'SMS campaigns', access: 'user', responses: { 200: ok('SmsCampaignDeleteResponse') } },
  { service: 'svc-sms', method: 'get', path: '/api/sms-templates', summary: 'SMS templates.', tag: 'SMS templates', access: 'user', responses: { 200: ok('SmsTemplateList') } },
  { service: 'svc-sms', method: 'post', path: '/api/sms-templates', summary: 'Create an SMS template (a step of a campaign).', tag: 'SMS templates', access: 'user', body: { schema: smsTemplateSchema }, responses: { 201: ok('SmsTemplate', 'Created') } },
  { service: 'svc-sms', method: 'patch', path: '/api/sms-templates/{id}', summary: 'Change an SMS template.', tag: 'SMS templates', access: 'user', body: { schema: smsTemplateSchema.partial() }, responses: { 200: ok('SmsTemplate') } },
  { service: 'svc-sms', method: 'delete', path: '/api/sms-templates/{id}', summary: 'Delete an SMS template.', tag: 'SMS templates', access: 'user', responses: { 200: ok('SmsActionResponse') } },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/sms-templates/preview',
    summary: "A template's text as one contact would get it (default: the newest contact with a cart, else the newest) or as sample data: the sends' renderer and segment rule (the first item's name shortened past the template's typical segments), with its segments (GSM-7 / UCS-2); the code shows as \"(unique code)\" unless `discount_code` is given. Nothing is sent or spent.",
    tag: 'SMS templates',
    access: 'user',
    body: { schema: smsPreviewRequestSchema },
    responses: { 200: ok('SmsPreview'), 400: 'No message.', 404: 'No contact with that id.' },
  },
  {
    service: 'svc-sms',
    method: 'get',
    path: '/api/sms-templates/preview/contacts',
    summary: 'Contacts a preview may use: by the start of their phone number (with its country code) or email, else the newest (those with a cart first), and the default one.',
    tag: 'SMS templates',
    access: 'user',
    query: 'PreviewContactsQueryParams',
    responses: { 200: ok('PreviewContactsResponse') },
  },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/sms-templates/{id}/test',
    summary: "Send the template (with sample values, or a chosen contact's data) to a test phone.",
    tag: 'SMS templates',
    access: 'user',
    body: { schema: smsTemplateTestRequestSchema },
    responses: { 200: ok('TwilioTestResponse') },
  },
  {
    service: 'svc-sms',
    method: 'get',
    path: '/api/sms-contacts',
    summary: 'SMS contacts: the whole list, or one page with its summary cards with `?page=`.',
    tag: 'SMS contacts',
    access: 'user',
    query: 'SmsContactListQueryParams',
    responses: { 200: ok('SmsContactListOrPage') },
  },
  {
    service: 'svc-sms',
    method: 'get',
    path: '/api/sms-contacts/{id}/timeline',
    summary:
      "An SMS contact's page: the contact, the same person's contacts on both sides, and one timeline of everything about them on both channels, newest first. Answered by the gateway, which asks svc-sms for the contact's part and svc-email for the same person's (each over its internal route), and svc-auth for the staff actions on the person's contacts (admins only), and merges them.",
    tag: 'SMS contacts',
    access: 'user',
    query: 'TimelineQueryParams',
    responses: { 200: ok('TimelinePage', '`next` is the cursor of the next page, null on the last; `unavailable` names a side that did not answer.'), 400: 'A `limit` or `before` this API did not write.', 404: 'No such SMS contact.', 503: 'svc-sms did not answer.' },
  },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/sms-contacts/mark-purchased',
    summary: 'Mark an SMS contact purchased (numeric `id`, or a funnel `contact_id` for every contact with it).',
    tag: 'SMS contacts',
    access: 'user',
    body: { schema: markPurchasedSchema },
    responses: { 200: ok('SmsMarkPurchasedResponse'), 404: 'No such contact.' },
  },
  { service: 'svc-sms', method: 'post', path: '/api/sms-contacts/clear', summary: 'Delete every SMS contact.', tag: 'SMS contacts', access: 'user', responses: { 200: ok('SmsClearContactsResponse'), 400: 'The body is neither empty nor a JSON object (nothing is deleted).', 403: 'With NODE_ENV=production, a plain user (only admins may).' } },
  { service: 'svc-sms', method: 'get', path: '/api/sms-logs', summary: 'SMS logs: the whole list, or one page with its summary cards with `?page=`.', tag: 'SMS logs', access: 'user', query: 'SmsLogListQueryParams', responses: { 200: ok('SmsLogListOrPage') } },
  {
    service: 'svc-sms',
    method: 'get',
    path: '/api/sms-webhook-events',
    summary: 'SMS-side webhook deliveries and Twilio callbacks: the whole list, or one page with its summary with `?page=`.',
    tag: 'Webhook events',
    access: 'user',
    query: 'SmsWebhookEventListQueryParams',
    responses: { 200: ok('SmsWebhookEventListOrPage') },
  },
  { service: 'svc-sms', method: 'get', path: '/api/sms-stats-simple', summary: 'Figures per integration over a date range.', tag: 'SMS stats', access: 'user', query: smsStatsQuerySchema, responses: { 200: ok('SmsStatsResponse') } },
  { service: 'svc-sms', method: 'get', path: '/api/sms/provider-status', summary: 'Whether Twilio is configured, how many SMS steps are due and wait for it, and what a page says at the top (SMS Contacts, SMS Logs, SMS Campaigns).', tag: 'Twilio', access: 'user', responses: { 200: ok('ProviderStatusResponse') } },
  { service: 'svc-sms', method: 'get', path: '/api/twilio/config', summary: 'The Twilio sender and blackout settings.', tag: 'Twilio', access: 'user', responses: { 200: ok('TwilioConfigResponse') } },
  { service: 'svc-sms', method: 'post', path: '/api/twilio/config', summary: 'Save the Twilio sender and blackout settings (fields left out keep their value).', tag: 'Twilio', access: 'admin', body: { schema: twilioConfigSchema }, responses: { 200: ok('TwilioConfigSaved') } },
  { service: 'svc-sms', method: 'get', path: '/api/twilio/messaging-services', summary: "The account's messaging services.", tag: 'Twilio', access: 'user', responses: { 200: ok('MessagingServicesResponse') } },
  {
    service: 'svc-sms',
    method: 'post',
    path: '/api/twilio/test-connection',
    summary: 'Check the Twilio credentials.',
    tag: 'Twilio',
    access: 'user',
    responses: { 200: ok('TwilioTestResponse'), 400: 'Twilio is not configured.', 502: ok('TwilioTestFailure', 'Twilio refused.') },
  },
  { service: 'svc-sms', method: 'post', path: '/api/twilio/test-sms', summary: 'Send a test SMS.', tag: 'Twilio', access: 'user', body: { schema: twilioTestSmsSchema }, responses: { 200: ok('TwilioTestResponse') } },
];

export const OPERATIONS: readonly Operation[] = [
  ...auth,
  ...email,
  ...experiments('svc-email', '/api/email/campaigns', 'Email campaigns', '/api/revenue/incremental'),
  ...revenue('svc-email', '/api/revenue'),
  ...sms,
  ...experiments('svc-sms', '/api/sms-campaigns', 'SMS campaigns', '/api/sms/revenue/incremental'),
  ...revenue('svc-sms', '/api/sms/revenue'),
  ...incentiveOperations('svc-email', '/api/email', 'Email'),
  ...incentiveOperations('svc-sms', '/api/sms', 'SMS'),
];
