/**
 * Every response shape and query shape the OpenAPI document names, as types only: ts-json-schema-generator reads this
 * file (and what it refers to) and turns each exported type into a schema of `components.schemas`. The types
 * themselves live beside the rules they belong to; only the few answers no service typed before are declared here.
 */
import type { CurrentUserDto, MessageDto, SignedOutDto, UserDto } from '../auth-api';
import type { EmailTimingSettings } from '../timing';
import type {
  CheckAbandonedCartsResponse,
  Contact,
  ContactListQuery,
  ContactPage,
  EmailCampaign,
  EmailLog,
  EmailTemplate,
  ListQuery,
  MarkPurchasedResponse,
  Paged,
  QuickAddUnsubscribeResponse,
  ReminderDelayResponse,
  RemoveUnsubscribeResponse,
  ResendConfigStatus,
  ResendConnectionResult,
  SetReminderDelayResponse,
  SuccessResponse,
  TestEmailResponse,
  UnsubscribeCheckResponse,
  UnsubscribeEntry,
  UnsubscribeResponse,
  WebhookEvent,
  WebhookIntegration,
  WebhookOkResponse,
} from '../email-api';
import type {
  MessagingServicesResponse,
  SmsActionResponse,
  SmsCampaign,
  SmsContact,
  SmsContactListQuery,
  SmsContactPage,
  SmsIntegration,
  SmsLog,
  SmsLogListQuery,
  SmsLogPage,
  SmsStatsResponse,
  SmsTemplate,
  SmsWebhookEvent,
  SmsWebhookEventListQuery,
  SmsWebhookEventPage,
  TwilioConfigResponse,
  TwilioTestResponse,
} from '../sms-api';
import type { DeliveryFilters, TestDeliveryResponse, WebhookSigningSettings } from '../webhook-signing';
import type { AuditPage, AuditService } from '../audit';
import type { PrivacyExport, PrivacyRequestView } from '../privacy';
import type { RevenuePurchasesPage, RevenueSettings, RevenueSummary, RevenueTable } from '../revenue-api';
import type { CampaignExperiment, CampaignResults, IncrementalOverview } from '../experiments-api';
import type { EmailClickTracking, SmsClickTracking } from '../click-tracking';
import type {
  ClickFunnels2WebhookBody,
  ClickFunnelsClassicWebhookBody,
  GenericLegacyWebhookBody,
  GenericWebhookBody,
  ShopifyWebhookBody,
  StripeWebhookBody,
  WooCommerceWebhookBody,
} from './webhook-bodies';

export type { AuditPage, CampaignExperiment, CampaignResults, IncrementalOverview, PrivacyExport, PrivacyRequestView, RevenuePurchasesPage, RevenueSettings, RevenueSummary };
/** GET .../campaigns/{id}/results */
export interface CampaignResultsQueryParams {
  /** `csv`: one row per step variant, then the reminded contacts and the holdout. */
  format?: 'json' | 'csv';
}
export type { EmailPreview, PreviewContactsResponse, SmsPreview } from '../template-preview';
/** GET .../preview/contacts */
export interface PreviewContactsQueryParams {
  /** The start of an email address, or of a phone number with its country code (SMS); empty: the newest contacts, those with a cart first. */
  q?: string;
}
export type { TimelinePage } from '../timeline';
/** Query of a contact page's timeline (answered by the gateway from both services' parts). */
export interface TimelineQueryParams {
  /** The `next` of the previous page: entries older than its last one. */
  before?: string;
  /** 1 to 200; default 50. */
  limit?: number;
}
export type { ProviderStatusResponse } from '../provider-status';
/** POST /api/test/clear-test-deliveries: what went. */
export interface ClearTestDeliveriesResponse extends SuccessResponse {
  cleared: { contacts: number; email_logs: number };
}
/** POST /api/sms-webhook-integrations/clear-test-deliveries: what went. */
export interface SmsClearTestDeliveriesResponse extends SmsActionResponse {
  cleared: { contacts: number; sms_logs: number };
}
/** Query shapes of the audit log and the revenue summary (their yup rules are the handlers' checks). */
export interface AuditQueryParams {
  /** Part of the username, any case. */
  user?: string;
  service?: AuditService;
  /** Part of the action name, e.g. `user.create`. */
  action?: string;
  /** ISO date or timestamp; a bare `to` date includes that whole day. */
  from?: string;
  to?: string;
  page?: number;
  /** 25, 50 or 100. */
  pageSize?: number;
}
export interface RevenueQueryParams {
  /** First and last day (UTC, YYYY-MM-DD); without them the `days` days up to today. */
  from?: string;
  to?: string;
  /** 1 to 366; default 30. */
  days?: number;
  integration_id?: number;
  model?: 'last' | 'first';
  window_days?: number;
  format?: 'json' | 'csv';
  table?: RevenueTable;
}
export interface RevenuePurchasesQueryParams {
  integration_id?: number;
  model?: 'last' | 'first';
  window_days?: number;
  /** 1 to 100; default 20. */
  limit?: number;
  /** The `next` of the page before. */
  before?: string;
}

export type {
  CheckAbandonedCartsResponse,
  Contact,
  ContactPage,
  CurrentUserDto,
  EmailCampaign,
  EmailTimingSettings,
  EmailLog,
  EmailTemplate,
  MarkPurchasedResponse,
  MessageDto,
  MessagingServicesResponse,
  QuickAddUnsubscribeResponse,
  ReminderDelayResponse,
  RemoveUnsubscribeResponse,
  ResendConfigStatus,
  ResendConnectionResult,
  SetReminderDelayResponse,
  SignedOutDto,
  SmsActionResponse,
  SmsCampaign,
  SmsContact,
  SmsContactPage,
  SmsIntegration,
  SmsLog,
  SmsLogPage,
  SmsStatsResponse,
  SmsTemplate,
  SmsWebhookEvent,
  SmsWebhookEventPage,
  SuccessResponse,
  TestDeliveryResponse,
  TestEmailResponse,
  TwilioConfigResponse,
  TwilioTestResponse,
  UnsubscribeCheckResponse,
  UnsubscribeEntry,
  UnsubscribeResponse,
  UserDto,
  WebhookEvent,
  WebhookIntegration,
  WebhookOkResponse,
  WebhookSigningSettings,
  EmailClickTracking,
  SmsClickTracking,
};

/** Every error answer of every service and of the gateway (`{ "error": message }`). */
export interface ErrorResponse {
  error: string;
}

export type EmailLogPage = Paged<EmailLog>;
export type WebhookEventPage = Paged<WebhookEvent>;

/** Query shapes: turned into query parameters, not schemas of a body. */
export type ContactListQueryParams = ContactListQuery;
export type ListQueryParams = ListQuery;
export type WebhookEventListQueryParams = ListQuery & DeliveryFilters;
export type SmsContactListQueryParams = SmsContactListQuery;
export type SmsLogListQueryParams = SmsLogListQuery;
export type SmsWebhookEventListQueryParams = SmsWebhookEventListQuery & DeliveryFilters;

/** POST /api/sms/webhook when the delivery is stored but does not apply (status 202). */
export interface SmsWebhookIgnoredResponse {
  status: 'ignored';
  message: string;
}
export type SmsWebhookResponse = WebhookOkResponse | SmsWebhookIgnoredResponse;

/** POST /api/resend/webhooks: the delivery event was taken (or was a repeat of one already taken). */
export interface ResendWebhookResponse {
  status: string;
  delivery: string | null;
}

/** POST /api/sms-contacts/mark-purchased */
export interface SmsMarkPurchasedResponse extends SmsActionResponse {
  /** How many SMS contacts were marked. */
  updated: number;
}
/** POST /api/sms-contacts/clear */
export interface SmsClearContactsResponse extends SmsActionResponse {
  deleted: number;
}
/** DELETE /api/sms-campaigns/{id} */
export interface SmsCampaignDeleteResponse extends SmsActionResponse {
  templates_deleted: number;
}
/** POST /api/twilio/config: the saved configuration and a confirmation. */
export interface TwilioConfigSaved extends TwilioConfigResponse {
  message: string;
}
/** POST /api/twilio/test-connection when Twilio refuses (status 502). */
export interface TwilioTestFailure extends TwilioTestResponse {
  error: string;
}

export type UserList = UserDto[];
export type PrivacyRequestList = PrivacyRequestView[];
export type ContactList = Contact[];
export type EmailLogList = EmailLog[];
export type WebhookEventList = WebhookEvent[];
export type WebhookIntegrationList = WebhookIntegration[];
export type EmailCampaignList = EmailCampaign[];
export type EmailTemplateList = EmailTemplate[];
export type UnsubscribeEntryList = UnsubscribeEntry[];
export type SmsIntegrationList = SmsIntegration[];
export type SmsCampaignList = SmsCampaign[];
export type SmsTemplateList = SmsTemplate[];
export type SmsContactList = SmsContact[];
export type SmsLogList = SmsLog[];
export type SmsWebhookEventList = SmsWebhookEvent[];

export * from './webhook-bodies';

export type CurrentUserOrSignedOut = CurrentUserDto | SignedOutDto;
export type ContactListOrPage = Contact[] | ContactPage;
export type EmailLogListOrPage = EmailLog[] | EmailLogPage;
export type WebhookEventListOrPage = WebhookEvent[] | WebhookEventPage;
export type SmsContactListOrPage = SmsContact[] | SmsContactPage;
export type SmsLogListOrPage = SmsLog[] | SmsLogPage;
export type SmsWebhookEventListOrPage = SmsWebhookEvent[] | SmsWebhookEventPage;

/** POST /api/test/clear-data */
export interface ClearDataResponse extends SuccessResponse {
  cleared: { contacts: number; email_logs: number; webhook_events: number };
}

/** The unsubscribe link's signed token (in List-Unsubscribe and the email footer). */
export interface OneClickQuery {
  token: string;
}
/** RFC 8058's one-click body. */
export interface OneClickBody {
  'List-Unsubscribe'?: 'One-Click';
}

/** What the funnel webhooks accept: the spec's formats or a real sender's own (told apart by headers, then body). */
export type FunnelWebhookBody =
  | GenericWebhookBody
  | GenericLegacyWebhookBody
  | ClickFunnels2WebhookBody
  | ClickFunnelsClassicWebhookBody
  | ShopifyWebhookBody
  | StripeWebhookBody
  | WooCommerceWebhookBody;

export type {
  Incentive,
  PoolSummary,
  PoolSummaryList,
  PoolUploadRequest,
  ShopCredentialsRequest,
  ShopCredentialsStatus,
  StepRedemptionsList,
} from '../incentives-api';
