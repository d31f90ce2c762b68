// Every public and signed-in endpoint behind the gateway (gateway/src/routes.ts and each service's routes.ts),
// with its access level, a valid body to mutate and the record it changes, for the generated hostile suite.
import { ok } from './client';
import { TWILIO_KEYS, type Fixtures } from './fixtures';
import type { Depth, Expect, FieldSpec } from './payloads';

export type Who = 'anon' | 'user' | 'admin';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path; `:id` is replaced by `id` for body cases and by each bad id for id cases. */
  path: string;
  as: Who;
  /** The fixture `:id` stands for in body cases. */
  id?: number;
  /** A valid body (`marker` is unique per generated case: creates carry it so stray records can be traced). */
  base?: (marker: string) => Record<string, unknown>;
  fields?: Record<string, FieldSpec>;
  /** The endpoint ignores its body: only the size limit and a couple of odd bodies are sent. */
  bodyless?: boolean;
  /** The body may be left out (its fields have defaults): an empty body is accepted, a malformed one refused. */
  bodyOptional?: boolean;
  /** Clears shared data whatever the body: only calls that must be refused (no session, too large) are sent. */
  destructive?: boolean;
  /** Sends the id cases (for paths with `:id`). */
  ids?: boolean;
  /** Sends the hostile query strings (GETs). */
  query?: boolean;
  /** Overrides every body and field case's expectation (e.g. a login with wrong credentials is always refused). */
  expect?: Expect;
  /** Sends only the cases that must be refused (the endpoint changes shared settings other tests read). */
  refuseOnly?: boolean;
  /**
   * Reads the one record (or setting) that body cases aim at: it must be identical after every refused case.
   * Cases of one endpoint with `snapshot` run one at a time.
   */
  snapshot?: () => Promise<unknown>;
  /** The snapshot is a setting other test files may save meanwhile: only a change this case explains counts. */
  shared?: boolean;
  /** Puts a shared setting back as it was read before an accepted case (other tests rely on their values). */
  restore?: (before: Record<string, unknown>) => Promise<unknown>;
  /** Statuses ≥ 500 that are this endpoint's documented answer (a provider refusing: 502). */
  allow?: number[];
  /** `full`: every generator (creates, public calls, list queries); default `light`: a representative subset. */
  depth?: Depth;
  /** How to remove what an accepted create stored (used for records holding huge strings, so lists stay small). */
  remove?: (created: Record<string, unknown>) => { method: string; path: string; body?: unknown };
}

const find = async (cookie: string, path: string, id: number) => {
  const rows = await ok<Record<string, unknown>[]>('GET', path, undefined, { cookie });
  return rows.find((r) => r.id === id) ?? null;
};

const findRef = async (cookie: string, path: string, ref: string) => {
  const rows = await ok<Record<string, unknown>[]>('GET', path, undefined, { cookie });
  return rows.filter((r) => r.contact_id === ref);
};

const text = (required = false): FieldSpec => ({ kind: 'text', required });
const num = (required = false): FieldSpec => ({ kind: 'number', required });
const id = (required = false): FieldSpec => ({ kind: 'id', required });
const bool: FieldSpec = { kind: 'bool' };

export function endpoints(f: Fixtures): Endpoint[] {
  const admin = f.adminCookie;
  const t = f.tag;
  const emailIntegrationFields = {
    name: text(true),
    funnel_id: text(true),
    active: bool,
    reminder_delay: num(),
    resend_template_id: id(),
    campaign_id: id(),
    email_template: text(),
  };
  const templateFields = {
    name: text(true),
    subject: text(),
    from_name: text(),
    html_content: { kind: 'html', required: true } as FieldSpec,
    type: text(),
    active: bool,
    campaign_id: id(),
    template_order: num(),
    delay_hours: num(),
  };
  const campaignFields = { name: text(true), description: text(), type: text(), active: bool };
  const smsIntegrationFields = {
    name: text(true),
    funnel_id: text(true),
    sms_campaign_id: id(),
    // svc-sms (and its form) take anything that is not a number as the default delay, 30.
    reminder_delay: { kind: 'number', lenient: true } as FieldSpec,
    active: bool,
  };
  const smsCampaignFields = { name: text(true), integration_id: id(), active: bool };
  const smsTemplateFields = {
    campaign_id: id(true),
    name: text(true),
    message: text(true),
    sequence_order: num(),
    delay_minutes: num(),
    active: bool,
  };
  const notRequired = (fields: Record<string, FieldSpec>) =>
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { ...v, required: false }]));
  const webhookFields = {
    event: text(true),
    funnel_id: text(),
    contact: { kind: 'object' } as FieldSpec,
    'contact.id': text(true),
    'contact.email': { kind: 'email' } as FieldSpec,
    'contact.first_name': text(),
  };

  return [
    // ---- svc-auth
    { method: 'GET', path: '/api/user', as: 'anon', query: true },
    {
      method: 'POST',
      path: '/api/login',
      as: 'anon',
      depth: 'full',
      // Never a real account: every case is a failed login, spread over source addresses and unique usernames.
      base: (m) => ({ username: `${m}-nobody`, password: 'wrong-password-1' }),
      fields: { username: { kind: 'password', required: true }, password: { kind: 'password', required: true } },
      expect: 'refuse',
    },
    { method: 'POST', path: '/api/logout', as: 'anon', bodyless: true },
    {
      method: 'PATCH',
      path: '/api/profile',
      as: 'user',
      base: () => ({ full_name: `Hx ${t} user`, email: `${t}-user@example.com` }),
      fields: { full_name: text(), email: { kind: 'email' } },
      snapshot: () => ok('GET', '/api/user', undefined, { cookie: f.userCookie }),
    },
    {
      method: 'POST',
      path: '/api/profile/change-password',
      as: 'user',
      // The current password is wrong in every case, so no case may succeed.
      base: () => ({ currentPassword: 'not-the-password', newPassword: 'Newpass-123', confirmPassword: 'Newpass-123' }),
      fields: {
        currentPassword: { kind: 'password', required: true },
        newPassword: { kind: 'password', required: true },
        confirmPassword: { kind: 'password', required: true },
      },
      expect: 'refuse',
    },
    { method: 'GET', path: '/api/users', as: 'admin', query: true },
    {
      method: 'POST',
      path: '/api/users',
      as: 'admin',
      depth: 'full',
      remove: (u) => ({ method: 'DELETE', path: `/api/users/${u.id}` }),
      base: (m) => ({
        username: m,
        password: 'Passw0rd-x',
        email: `${m}@example.com`,
        full_name: `Hx ${m}`,
        role: 'user',
      }),
      fields: {
        username: text(true),
        password: { kind: 'password', required: true },
        email: { kind: 'email' },
        full_name: text(),
        role: { kind: 'role', required: true },
      },
    },
    {
      method: 'PATCH',
      path: '/api/users/:id',
      as: 'admin',
      id: f.victimId,
      ids: true,
      base: () => ({ email: `${t}-victim@example.com`, full_name: `Hx ${t} victim`, role: 'user' }),
      fields: { email: { kind: 'email' }, full_name: text(), role: { kind: 'role', required: true } },
      snapshot: () => find(admin, '/api/users', f.victimId),
    },
    {
      method: 'POST',
      path: '/api/users/:id/reset-password',
      as: 'admin',
      id: f.victim2Id,
      ids: true,
      base: () => ({ password: 'Victim-pass-2' }),
      fields: { password: { kind: 'password', required: true } },
      snapshot: () => find(admin, '/api/users', f.victim2Id),
    },
    { method: 'DELETE', path: '/api/users/:id', as: 'admin', ids: true },

    // ---- svc-email
    {
      method: 'POST',
      path: '/api/webhook',
      as: 'anon',
      depth: 'full',
      base: (m) => ({
        event: 'contact_created',
        funnel_id: f.emailWebhookFunnel,
        contact: { id: m, email: `${m}@example.com`, phone: '+15550100002', first_name: `Hx ${m}` },
      }),
      fields: webhookFields,
      // Deliveries are stored and answered by docs/webhooks.md's rules: only never a 5xx is asserted per field.
      expect: 'any',
    },
    {
      // An integration's own URL with a key that matches none: 404 whatever the body, never a 5xx.
      method: 'POST',
      path: '/api/webhook/i/AAAAAAAAAAAAAAAAAAAAAAAA',
      as: 'anon',
      base: (m) => ({
        event_type: 'contact.identified',
        event_id: m,
        data: { id: 1, email_address: `${m}@example.com` },
      }),
      fields: { event_type: text(true), event_id: text(), data: { kind: 'object' } },
      expect: 'any',
    },
    { method: 'GET', path: '/api/webhook-signing', as: 'user', query: true },
    {
      method: 'PUT',
      path: '/api/webhook-signing',
      as: 'admin',
      base: () => ({ require_signed: false }),
      fields: { require_signed: { kind: 'bool', required: true } },
      // Turning it on would refuse every other test's unsigned deliveries.
      refuseOnly: true,
    },
    {
      method: 'POST',
      path: '/api/webhook-integrations/:id/test-delivery',
      as: 'user',
      id: f.emailIntegrationId,
      ids: true,
      base: () => ({ source: 'generic' }),
      fields: { source: text() },
      bodyOptional: true,
      allow: [502],
    },
    { method: 'GET', path: '/api/contacts', as: 'user', query: true, depth: 'full' },
    {
      method: 'POST',
      path: '/api/contacts/mark-purchased',
      as: 'user',
      base: () => ({ contact_id: f.emailContactRef }),
      fields: { contact_id: { kind: 'mixedId', required: true } },
      snapshot: () => findRef(admin, '/api/contacts', f.emailContactRef),
    },
    { method: 'GET', path: '/api/email-logs', as: 'user', query: true, depth: 'full' },
    { method: 'GET', path: '/api/webhook-events', as: 'user', query: true, depth: 'full' },
    { method: 'GET', path: '/api/webhook-integrations', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/webhook-integrations',
      as: 'user',
      remove: (i) => ({ method: 'DELETE', path: `/api/webhook-integrations/${i.id}` }),
      base: (m) => ({ name: `Hx ${m}`, funnel_id: m, active: false, reminder_delay: 30 }),
      fields: emailIntegrationFields,
    },
    {
      method: 'PATCH',
      path: '/api/webhook-integrations/:id',
      as: 'user',
      id: f.emailIntegrationId,
      ids: true,
      base: () => ({ name: `Hx ${t} integration`, funnel_id: `${t}-ei`, active: true, reminder_delay: 30 }),
      fields: notRequired(emailIntegrationFields),
      snapshot: () => find(admin, '/api/webhook-integrations', f.emailIntegrationId),
    },
    { method: 'POST', path: '/api/webhook-integrations/:id/clear-contacts', as: 'user', ids: true, bodyless: true },
    { method: 'DELETE', path: '/api/webhook-integrations/:id', as: 'user', ids: true },
    { method: 'GET', path: '/api/settings/reminder-delay', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/settings/reminder-delay',
      as: 'user',
      base: () => ({ reminderDelay: f.reminderDelay }),
      fields: { reminderDelay: num(true) },
      snapshot: () => ok('GET', '/api/settings/reminder-delay', undefined, { cookie: admin }),
      shared: true,
      restore: (before) =>
        ok('POST', '/api/settings/reminder-delay', { reminderDelay: before.reminderDelay }, { cookie: admin }),
    },
    { method: 'GET', path: '/api/settings/timing', as: 'user', query: true },
    {
      method: 'PUT',
      path: '/api/settings/timing',
      as: 'admin',
      base: () => ({}),
      fields: { quiet_hours_enabled: bool, quiet_start_hour: num(), quiet_end_hour: num(), frequency_cap_hours: num() },
      snapshot: () => ok('GET', '/api/settings/timing', undefined, { cookie: admin }),
      shared: true,
      restore: (before) => ok('PUT', '/api/settings/timing', before, { cookie: admin }),
    },
    { method: 'POST', path: '/api/test/check-abandoned-carts', as: 'user', bodyless: true },
    { method: 'POST', path: '/api/test/clear-data', as: 'user', destructive: true },
    { method: 'GET', path: '/api/resend/config', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/resend/config',
      as: 'admin',
      base: () => ({}),
      fields: { apiKey: text(), from: text() },
      refuseOnly: true,
      snapshot: () => ok('GET', '/api/resend/config', undefined, { cookie: admin }),
      shared: true,
    },
    { method: 'POST', path: '/api/resend/test-connection', as: 'user', bodyless: true, allow: [502] },
    { method: 'GET', path: '/api/resend/templates', as: 'user', query: true },
    { method: 'GET', path: '/api/resend/templates/campaign/:id', as: 'user', ids: true },
    {
      method: 'POST',
      path: '/api/resend/templates',
      as: 'user',
      remove: (t) => ({ method: 'DELETE', path: `/api/resend/templates/${t.id}` }),
      base: (m) => ({ name: `Hx ${m}`, subject: `Subject ${m}`, html_content: `<p>${m}</p>` }),
      fields: templateFields,
    },
    {
      method: 'POST',
      path: '/api/resend/templates',
      as: 'user',
      remove: (t) => ({ method: 'DELETE', path: `/api/resend/templates/${t.id}` }),
      base: (m) => ({
        name: `Hx ${m}`,
        subject: `Subject ${m}`,
        html_content: `<p>${m}</p>`,
        campaign_id: f.emailTemplateCampaignId,
      }),
      fields: { campaign_id: id(), template_order: num(), delay_hours: num(), type: text() },
    },
    {
      method: 'PATCH',
      path: '/api/resend/templates/:id',
      as: 'user',
      id: f.emailTemplateId,
      ids: true,
      base: () => ({ name: `Hx ${t} template` }),
      fields: notRequired(templateFields),
      snapshot: () => find(admin, '/api/resend/templates', f.emailTemplateId),
    },
    { method: 'DELETE', path: '/api/resend/templates/:id', as: 'user', ids: true },
    {
      method: 'POST',
      path: '/api/resend/templates/:id/test',
      as: 'user',
      id: f.emailTemplateId,
      ids: true,
      base: () => ({ testEmail: `${t}-test@example.com` }),
      fields: { testEmail: { kind: 'email', required: true } },
      allow: [502],
    },
    { method: 'GET', path: '/api/email/campaigns', as: 'user', query: true },
    { method: 'GET', path: '/api/email/campaigns/:id', as: 'user', ids: true },
    {
      method: 'POST',
      path: '/api/email/campaigns',
      as: 'user',
      depth: 'full',
      remove: (c) => ({ method: 'DELETE', path: `/api/email/campaigns/${c.id}` }),
      base: (m) => ({ name: `Hx ${m}`, description: `Description ${m}` }),
      fields: campaignFields,
    },
    {
      method: 'PUT',
      path: '/api/email/campaigns/:id',
      as: 'user',
      id: f.emailCampaignId,
      ids: true,
      base: () => ({ name: `Hx ${t} campaign`, description: `Hx ${t}`, type: 'abandoned_cart', active: false }),
      fields: campaignFields,
      snapshot: () => ok('GET', `/api/email/campaigns/${f.emailCampaignId}`, undefined, { cookie: admin }),
    },
    { method: 'DELETE', path: '/api/email/campaigns/:id', as: 'user', ids: true },
    { method: 'GET', path: '/api/unsubscribe', as: 'anon', query: true, depth: 'full' },
    {
      method: 'POST',
      path: '/api/unsubscribe',
      as: 'anon',
      depth: 'full',
      base: (m) => ({ email: `${m}@example.com`, reason: `Reason ${m}` }),
      fields: { email: { kind: 'email', required: true }, reason: text() },
    },
    {
      method: 'POST',
      path: '/api/unsubscribe/one-click',
      as: 'anon',
      query: true,
      bodyless: true,
      depth: 'full',
      expect: 'refuse',
    },
    { method: 'GET', path: '/api/unsubscribe/one-click', as: 'anon', query: true, depth: 'full' },
    { method: 'GET', path: '/api/direct-unsubscribes', as: 'admin', query: true },
    {
      method: 'POST',
      path: '/api/email-unsubscribes/quick-add',
      as: 'admin',
      depth: 'full',
      remove: (r) => ({
        method: 'POST',
        path: '/api/email-unsubscribes/remove',
        body: { id: (r.entry as { id: number }).id },
      }),
      base: (m) => ({ email: `${m}@example.com`, reason: `Reason ${m}` }),
      fields: { email: { kind: 'email', required: true }, reason: text() },
    },
    {
      method: 'POST',
      path: '/api/email-unsubscribes/remove',
      as: 'admin',
      // An id of nothing: every case is refused (by the rules, or as not found).
      base: () => ({ id: 999999999 }),
      fields: { id: num(true) },
      expect: 'refuse',
    },

    // ---- svc-sms
    {
      method: 'POST',
      path: '/api/sms/webhook',
      as: 'anon',
      depth: 'full',
      base: (m) => ({
        event: 'contact_created',
        funnel_id: f.smsWebhookFunnel,
        contact: { id: m, phone: '+15550100003', email: `${m}@example.com`, first_name: `Hx ${m}` },
      }),
      fields: {
        event: text(true),
        funnel_id: text(true),
        contact: { kind: 'object' },
        'contact.id': text(true),
        'contact.phone': text(true),
        'contact.first_name': text(),
      },
      expect: 'any',
    },
    {
      method: 'POST',
      path: '/api/sms/webhook/i/AAAAAAAAAAAAAAAAAAAAAAAA',
      as: 'anon',
      base: (m) => ({ event: 'contact_created', funnel_id: m, contact: { id: m, phone: '+15550100003' } }),
      fields: { event: text(true), funnel_id: text(), contact: { kind: 'object' } },
      expect: 'any',
    },
    { method: 'GET', path: '/api/sms/webhook-signing', as: 'user', query: true },
    {
      method: 'PUT',
      path: '/api/sms/webhook-signing',
      as: 'admin',
      base: () => ({ require_signed: false }),
      fields: { require_signed: { kind: 'bool', required: true } },
      refuseOnly: true,
    },
    {
      method: 'POST',
      path: '/api/sms-webhook-integrations/:id/test-delivery',
      as: 'user',
      id: f.smsIntegrationId,
      ids: true,
      base: () => ({ source: 'generic' }),
      fields: { source: text() },
      bodyOptional: true,
      allow: [502],
    },
    { method: 'GET', path: '/api/sms-webhook-integrations', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/sms-webhook-integrations',
      as: 'user',
      depth: 'full',
      remove: (i) => ({ method: 'DELETE', path: `/api/sms-webhook-integrations/${i.id}` }),
      base: (m) => ({ name: `Hx ${m}`, funnel_id: m, active: false, reminder_delay: 30 }),
      fields: smsIntegrationFields,
    },
    {
      method: 'PATCH',
      path: '/api/sms-webhook-integrations/:id',
      as: 'user',
      id: f.smsIntegrationId,
      ids: true,
      base: () => ({ name: `Hx ${t} sms integration` }),
      fields: notRequired(smsIntegrationFields),
      snapshot: () => find(admin, '/api/sms-webhook-integrations', f.smsIntegrationId),
    },
    { method: 'DELETE', path: '/api/sms-webhook-integrations/:id', as: 'user', ids: true },
    { method: 'GET', path: '/api/sms-campaigns', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/sms-campaigns',
      as: 'user',
      depth: 'full',
      remove: (c) => ({ method: 'DELETE', path: `/api/sms-campaigns/${c.id}` }),
      base: (m) => ({ name: `Hx ${m}`, active: false }),
      fields: smsCampaignFields,
    },
    {
      method: 'PATCH',
      path: '/api/sms-campaigns/:id',
      as: 'user',
      id: f.smsCampaignId,
      ids: true,
      base: () => ({ name: `Hx ${t} sms campaign` }),
      fields: notRequired(smsCampaignFields),
      snapshot: () => find(admin, '/api/sms-campaigns', f.smsCampaignId),
    },
    { method: 'DELETE', path: '/api/sms-campaigns/:id', as: 'user', ids: true },
    { method: 'GET', path: '/api/sms-templates', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/sms-templates',
      as: 'user',
      remove: (t) => ({ method: 'DELETE', path: `/api/sms-templates/${t.id}` }),
      base: (m) => ({ campaign_id: f.smsTemplateCampaignId, name: `Hx ${m}`, message: `Message ${m}` }),
      fields: smsTemplateFields,
    },
    {
      method: 'PATCH',
      path: '/api/sms-templates/:id',
      as: 'user',
      id: f.smsTemplateId,
      ids: true,
      base: () => ({ name: `Hx ${t} sms template` }),
      fields: notRequired(smsTemplateFields),
      snapshot: () => find(admin, '/api/sms-templates', f.smsTemplateId),
    },
    { method: 'DELETE', path: '/api/sms-templates/:id', as: 'user', ids: true },
    {
      method: 'POST',
      path: '/api/sms-templates/:id/test',
      as: 'user',
      id: f.smsTemplateId,
      ids: true,
      base: () => ({ testPhone: '+15550100004' }),
      fields: { testPhone: text(true) },
      allow: [502],
    },
    { method: 'GET', path: '/api/sms-contacts', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/sms-contacts/mark-purchased',
      as: 'user',
      base: () => ({ contact_id: f.smsContactRef }),
      fields: { contact_id: { kind: 'mixedId', required: true } },
      snapshot: () => findRef(admin, '/api/sms-contacts', f.smsContactRef),
    },
    { method: 'POST', path: '/api/sms-contacts/clear', as: 'user', destructive: true },
    { method: 'GET', path: '/api/sms-logs', as: 'user', query: true },
    { method: 'GET', path: '/api/sms-webhook-events', as: 'user', query: true },
    { method: 'GET', path: '/api/sms-stats-simple', as: 'user', query: true, depth: 'full' },
    { method: 'GET', path: '/api/twilio/config', as: 'user', query: true },
    {
      method: 'POST',
      path: '/api/twilio/config',
      as: 'user',
      base: () => ({}),
      fields: {
        messaging_service_sid: text(),
        phone_number: text(),
        webhook_url: text(),
        delivery_webhooks_enabled: bool,
        blackout_start_hour: num(),
        blackout_end_hour: num(),
        blackout_timezone: text(),
        blackout_enabled: bool,
        frequency_cap_hours: num(),
      },
      snapshot: () => ok('GET', '/api/twilio/config', undefined, { cookie: admin }),
      shared: true,
      restore: (before) =>
        ok('POST', '/api/twilio/config', Object.fromEntries(TWILIO_KEYS.map((k) => [k, before[k]])), { cookie: admin }),
    },
    { method: 'GET', path: '/api/twilio/messaging-services', as: 'user', allow: [502] },
    { method: 'POST', path: '/api/twilio/test-connection', as: 'user', bodyless: true, allow: [502] },
    {
      method: 'POST',
      path: '/api/twilio/test-sms',
      as: 'user',
      base: () => ({ test_phone: '+15550100005', test_message: `Hx ${t}` }),
      fields: { test_phone: text(true), test_message: text(true) },
      allow: [502],
    },
  ];
}

/** Raw calls outside the table: unknown routes, wrong methods, Twilio's form-encoded callbacks. */
export interface RawCase {
  label: string;
  method: string;
  path: string;
  as: Who;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  expect: Expect;
}

export const RAW_CASES: RawCase[] = [
  { label: 'unknown path', method: 'GET', path: '/api/nope', as: 'user', expect: 404 },
  { label: 'unknown sms path', method: 'GET', path: '/api/sms-nope', as: 'user', expect: 404 },
  { label: 'unknown twilio path', method: 'GET', path: '/api/twilio/nope', as: 'user', expect: 404 },
  {
    label: 'unknown users subpath',
    method: 'POST',
    path: '/api/users/1/unknown',
    as: 'admin',
    body: '{}',
    expect: 'refuse',
  },
  { label: 'wrong method', method: 'PUT', path: '/api/webhook-integrations', as: 'user', body: '{}', expect: 'refuse' },
  { label: 'wrong method on login', method: 'GET', path: '/api/login', as: 'anon', expect: 'refuse' },
  { label: 'wrong method on webhook', method: 'GET', path: '/api/webhook', as: 'anon', expect: 'refuse' },
  { label: 'encoded traversal', method: 'GET', path: '/api/%2e%2e/%2e%2e/etc/passwd', as: 'user', expect: 'refuse' },
  { label: 'traversal into users', method: 'GET', path: '/api/contacts/..%2f..%2fusers', as: 'user', expect: 'refuse' },
  { label: 'double slash', method: 'GET', path: '/api//users', as: 'user', expect: 'refuse' },
  // Methods no /api route has: 405, where a router that does not know them fails (500).
  ...['TRACE', 'PROPFIND', 'SEARCH', 'MKCOL', 'PURGE'].map(
    (method): RawCase => ({ label: `method ${method}`, method, path: '/api/contacts', as: 'user', expect: 405 }),
  ),
  // Remote names that are Object.prototype members (a lookup by plain key would find them: 500).
  ...['constructor', '__proto__', 'toString', 'hasOwnProperty'].map(
    (name): RawCase => ({ label: `remote ${name}`, method: 'GET', path: `/remotes/${name}/x`, as: 'anon', expect: 404 }),
  ),
  // CSRF: a signed-in browser made to post a form, or to call from another origin, is refused before any effect.
  ...(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'] as const).flatMap(
    (contentType): RawCase[] => [
      { label: `form post ${contentType}`, method: 'POST', path: '/api/users', as: 'admin', contentType, body: '{"username":"csrf","password":"Password123!","role":"admin"}', expect: 415 },
      { label: `form post ${contentType}`, method: 'POST', path: '/api/campaigns', as: 'user', contentType, body: '{"name":"csrf"}', expect: 415 },
    ],
  ),
  ...['http://evil.example', 'null', 'http://127.0.0.1:1'].map(
    (origin): RawCase => ({ label: `origin ${origin}`, method: 'POST', path: '/api/campaigns', as: 'user', body: '{"name":"csrf"}', headers: { origin }, expect: 403 }),
  ),
  { label: 'cross-site fetch', method: 'DELETE', path: '/api/users/999999', as: 'admin', headers: { 'sec-fetch-site': 'cross-site' }, expect: 403 },
  ...[
    'MessageSid=SM1&MessageStatus=delivered',
    'From=%2B15550100006&Body=STOP',
    '__proto__%5Bpolluted%5D=yes&constructor%5Bprototype%5D%5Bpolluted%5D=yes',
    `Body=${'A'.repeat(200 * 1024)}&From=%2B1`,
    '{"MessageSid":{"$ne":null},"MessageStatus":"delivered"}',
    'MessageSid[$ne]=x&MessageStatus=delivered',
    '%%%',
  ].flatMap((body, i): RawCase[] => [
    {
      label: `twilio callback ${i} unsigned`,
      method: 'POST',
      path: '/api/twilio/webhooks',
      as: 'anon',
      body,
      contentType: 'application/x-www-form-urlencoded',
      expect: 'refuse',
    },
    {
      label: `twilio callback ${i} forged signature`,
      method: 'POST',
      path: '/api/twilio/webhooks?x=%24ne',
      as: 'anon',
      body,
      contentType: 'application/x-www-form-urlencoded',
      headers: { 'x-twilio-signature': 'bm90LWEtc2lnbmF0dXJl' },
      expect: 'refuse',
    },
  ]),
];
