// Records the hostile suite aims at, created through the API as admin, and removed again afterwards. Every
// name carries the run's tag, so the suite finds (and cleans) only its own records in a shared stack.
import { randomBytes } from 'node:crypto';
import { readStack } from '../stack';
import { json, login, ok } from './client';

export interface Fixtures {
  tag: string;
  adminCookie: string;
  userCookie: string;
  user: { id: number; username: string; password: string };
  /** PATCH /api/users/:id target */
  victimId: number;
  /** POST /api/users/:id/reset-password target */
  victim2Id: number;
  /** PATCH target (no contacts, so its list row never changes under us) */
  emailIntegrationId: number;
  /** Receives the suite's funnel webhooks */
  emailWebhookFunnel: string;
  emailWebhookIntegrationId: number;
  emailContactRef: string;
  /** PUT target */
  emailCampaignId: number;
  /** Parent of the campaign-template creates */
  emailTemplateCampaignId: number;
  emailTemplateId: number;
  smsIntegrationId: number;
  smsWebhookFunnel: string;
  smsWebhookIntegrationId: number;
  smsContactRef: string;
  /** PATCH target */
  smsCampaignId: number;
  /** Parent of the template creates and of smsTemplateId */
  smsTemplateCampaignId: number;
  smsTemplateId: number;
  /** An unsubscribe entry no case aims at: it must outlive the hostile removes. */
  unsubscribeId: number;
  reminderDelay: number;
}

/** The fields of POST /api/twilio/config (GET answers them, and more). */
export const TWILIO_KEYS = [
  'messaging_service_sid',
  'phone_number',
  'webhook_url',
  'delivery_webhooks_enabled',
  'blackout_start_hour',
  'blackout_end_hour',
  'blackout_timezone',
  'blackout_enabled',
  'frequency_cap_hours',
];

export function newTag(): string {
  return `hx${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export async function createFixtures(tag: string): Promise<Fixtures> {
  const { adminPassword } = readStack();
  const adminCookie = await login('admin', adminPassword);
  const as = { cookie: adminCookie };
  const newUser = (suffix: string, password: string) =>
    ok<{ id: number; username: string }>(
      'POST',
      '/api/users',
      {
        username: `${tag}-${suffix}`,
        password,
        full_name: `Hx ${tag} ${suffix}`,
        email: `${tag}-${suffix}@example.com`,
        role: 'user',
      },
      as,
    );
  const userPassword = `Pw-${tag}`;
  const [user, victim, victim2] = await Promise.all([
    newUser('user', userPassword),
    newUser('victim', 'Victim-pass-1'),
    newUser('victim2', 'Victim-pass-2'),
  ]);
  const userCookie = await login(user.username, userPassword);

  const emailWebhookFunnel = `${tag}-ef`;
  const smsWebhookFunnel = `${tag}-sf`;
  const emailIntegration = (name: string, funnel: string) =>
    ok<{ id: number }>(
      'POST',
      '/api/webhook-integrations',
      { name, funnel_id: funnel, active: true, reminder_delay: 30 },
      as,
    );
  const emailCampaign = (name: string) =>
    ok<{ id: number }>('POST', '/api/email/campaigns', { name, description: `Hx ${tag}`, active: false }, as);
  const smsCampaign = (name: string) => ok<{ id: number }>('POST', '/api/sms-campaigns', { name, active: false }, as);
  const smsIntegration = (name: string, funnel: string, active: boolean) =>
    ok<{ id: number }>(
      'POST',
      '/api/sms-webhook-integrations',
      { name, funnel_id: funnel, active, reminder_delay: 30 },
      as,
    );

  const [ei, ewi, ec, etc, sc, stc, si, swi, settings] = await Promise.all([
    emailIntegration(`Hx ${tag} integration`, `${tag}-ei`),
    emailIntegration(`Hx ${tag} webhook integration`, emailWebhookFunnel),
    emailCampaign(`Hx ${tag} campaign`),
    emailCampaign(`Hx ${tag} template campaign`),
    smsCampaign(`Hx ${tag} sms campaign`),
    smsCampaign(`Hx ${tag} sms template campaign`),
    smsIntegration(`Hx ${tag} sms integration`, `${tag}-si`, false),
    smsIntegration(`Hx ${tag} sms webhook integration`, smsWebhookFunnel, true),
    ok<{ reminderDelay: number }>('GET', '/api/settings/reminder-delay', undefined, as),
  ]);
  const [et, st] = await Promise.all([
    ok<{ id: number }>(
      'POST',
      '/api/resend/templates',
      { name: `Hx ${tag} template`, subject: `Hx ${tag}`, html_content: '<p>Hi</p>' },
      as,
    ),
    ok<{ id: number }>(
      'POST',
      '/api/sms-templates',
      { campaign_id: stc.id, name: `Hx ${tag} sms template`, message: `Hx ${tag} message` },
      as,
    ),
  ]);
  const unsubscribe = await ok<{ entry: { id: number } }>(
    'POST',
    '/api/email-unsubscribes/quick-add',
    { email: `${tag}-fixture@example.com` },
    as,
  );
  const emailContactRef = `${tag}-c1`;
  const smsContactRef = `${tag}-c2`;
  await Promise.all([
    ok('POST', '/api/webhook', {
      event: 'contact_created',
      funnel_id: emailWebhookFunnel,
      contact: { id: emailContactRef, email: `${emailContactRef}@example.com` },
    }),
    ok('POST', '/api/sms/webhook', {
      event: 'contact_created',
      funnel_id: smsWebhookFunnel,
      contact: { id: smsContactRef, phone: '+15550100001' },
    }),
  ]);

  return {
    tag,
    adminCookie,
    userCookie,
    user: { id: user.id, username: user.username, password: userPassword },
    victimId: victim.id,
    victim2Id: victim2.id,
    emailIntegrationId: ei.id,
    emailWebhookFunnel,
    emailWebhookIntegrationId: ewi.id,
    emailContactRef,
    emailCampaignId: ec.id,
    emailTemplateCampaignId: etc.id,
    emailTemplateId: et.id,
    smsIntegrationId: si.id,
    smsWebhookFunnel,
    smsWebhookIntegrationId: swi.id,
    smsContactRef,
    smsCampaignId: sc.id,
    smsTemplateCampaignId: stc.id,
    smsTemplateId: st.id,
    unsubscribeId: unsubscribe.entry.id,
    reminderDelay: settings.reminderDelay,
  };
}

/** Where each fixture record is listed: every one must still be there after the run (no hostile delete hit it). */
export function fixtureRecords(f: Fixtures): { path: string; id: number }[] {
  return [
    ...[f.user.id, f.victimId, f.victim2Id].map((id) => ({ path: '/api/users', id })),
    ...[f.emailIntegrationId, f.emailWebhookIntegrationId].map((id) => ({ path: '/api/webhook-integrations', id })),
    ...[f.emailCampaignId, f.emailTemplateCampaignId].map((id) => ({ path: '/api/email/campaigns', id })),
    { path: '/api/resend/templates', id: f.emailTemplateId },
    ...[f.smsIntegrationId, f.smsWebhookIntegrationId].map((id) => ({ path: '/api/sms-webhook-integrations', id })),
    ...[f.smsCampaignId, f.smsTemplateCampaignId].map((id) => ({ path: '/api/sms-campaigns', id })),
    { path: '/api/sms-templates', id: f.smsTemplateId },
    { path: '/api/direct-unsubscribes', id: f.unsubscribeId },
  ];
}

/** The lists that stored records show in, read as admin. */
export const LISTS: { name: string; path: string }[] = [
  { name: 'users', path: '/api/users' },
  { name: 'email integrations', path: '/api/webhook-integrations' },
  { name: 'email campaigns', path: '/api/email/campaigns' },
  { name: 'email templates', path: '/api/resend/templates' },
  { name: 'email contacts', path: '/api/contacts' },
  { name: 'unsubscribe list', path: '/api/direct-unsubscribes' },
  { name: 'sms integrations', path: '/api/sms-webhook-integrations' },
  { name: 'sms campaigns', path: '/api/sms-campaigns' },
  { name: 'sms templates', path: '/api/sms-templates' },
  { name: 'sms contacts', path: '/api/sms-contacts' },
];

/** A list's rows (lists answer an array, or `{ data: [...] }` / `{ items: [...] }` when paged). */
export async function readList(adminCookie: string, path: string): Promise<Record<string, unknown>[]> {
  const body = await ok<unknown>('GET', path, undefined, { cookie: adminCookie });
  if (Array.isArray(body)) return body as Record<string, unknown>[];
  for (const key of ['data', 'items', 'entries', 'unsubscribes', 'rows', 'contacts', 'users']) {
    const v = (body as Record<string, unknown>)[key];
    if (Array.isArray(v)) return v as Record<string, unknown>[];
  }
  throw new Error(`${path}: no list in ${JSON.stringify(body).slice(0, 200)}`);
}

/** Removes what the run left behind (best effort: a failure here must not hide the suite's findings). */
export async function cleanup(f: Fixtures): Promise<string[]> {
  const problems: string[] = [];
  const as = { cookie: f.adminCookie };
  const del = async (path: string) => {
    const res = await json('DELETE', path, undefined, as);
    if (res.status >= 300 && res.status !== 404)
      problems.push(`DELETE ${path} → ${res.status} ${res.text.slice(0, 120)}`);
  };
  const mine = (rows: Record<string, unknown>[]) => rows.filter((r) => JSON.stringify(r).includes(f.tag));
  try {
    // Settings are restored by the suite right after each accepted case, not here: other tests may own them now.
    const [emailTemplates, smsTemplates] = await Promise.all([
      readList(f.adminCookie, '/api/resend/templates'),
      readList(f.adminCookie, '/api/sms-templates'),
    ]);
    await Promise.all([
      ...mine(emailTemplates).map((t) => del(`/api/resend/templates/${t.id}`)),
      ...mine(smsTemplates).map((t) => del(`/api/sms-templates/${t.id}`)),
    ]);
    const [emailIntegrations, emailCampaigns, smsCampaigns, smsIntegrations, unsubscribes, users] = await Promise.all([
      readList(f.adminCookie, '/api/webhook-integrations'),
      readList(f.adminCookie, '/api/email/campaigns'),
      readList(f.adminCookie, '/api/sms-campaigns'),
      readList(f.adminCookie, '/api/sms-webhook-integrations'),
      readList(f.adminCookie, '/api/direct-unsubscribes'),
      readList(f.adminCookie, '/api/users'),
    ]);
    await Promise.all(
      mine(emailIntegrations).map(async (i) => {
        await json('POST', `/api/webhook-integrations/${i.id}/clear-contacts`, undefined, as);
        await del(`/api/webhook-integrations/${i.id}`);
      }),
    );
    await Promise.all([
      ...mine(emailCampaigns).map((c) => del(`/api/email/campaigns/${c.id}`)),
      ...mine(smsCampaigns).map((c) => del(`/api/sms-campaigns/${c.id}`)),
      ...mine(smsIntegrations).map((i) => del(`/api/sms-webhook-integrations/${i.id}`)),
      ...mine(unsubscribes).map((u) => json('POST', '/api/email-unsubscribes/remove', { id: u.id }, as)),
      ...mine(users).map((u) => del(`/api/users/${u.id}`)),
    ]);
  } catch (err) {
    problems.push(`cleanup: ${(err as Error).message}`);
  }
  return problems;
}
