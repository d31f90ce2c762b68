/**
 * The start-up the sending tests share: svc-email over the fake Resend (and, where a step's code is made in Shopify,
 * the fake Shopify Admin API), live sending on with an hour of delay lasting a second, and campaigns of templates on
 * an integration of their funnel.
 */
import { startFakeResend, startFakeShopifyAdmin, type FakeResend, type FakeShopifyAdmin } from '@act/testing';
import type { EmailCampaign } from '@act/contracts/src/email-api';
import type { EmailTimingSettings } from '@act/contracts/src/timing';
import { contactCreated, dropDb, startEmail, type EmailUnderTest } from './helpers';

export interface SendingEmail extends EmailUnderTest {
  resend: FakeResend;
  /** Stops the service, drops its database and closes the fakes. */
  stop(): Promise<void>;
}

export type ShopSendingEmail = SendingEmail & { shopify: FakeShopifyAdmin };

export interface SendingOptions {
  /** Off for a service that only previews and sends tests: its flows never send. */
  live?: boolean;
  /** Added to (or overriding) the sending environment. */
  env?: Record<string, string>;
}

/** svc-email sending through the fake Resend. */
export async function startSendingEmail(label: string, options?: SendingOptions): Promise<SendingEmail>;
/** The same, with the fake Shopify Admin API beside it for codes made in Shopify. */
export async function startSendingEmail(label: string, options: SendingOptions & { shopify: true }): Promise<ShopSendingEmail>;
export async function startSendingEmail(label: string, { live = true, env = {}, shopify = false }: SendingOptions & { shopify?: boolean } = {}) {
  const [resend, shop] = await Promise.all([startFakeResend(), shopify ? startFakeShopifyAdmin() : null]);
  const email = await startEmail(label, {
    ...(live && { EMAIL_LIVE_SENDING: 'true', EMAIL_DELAY_HOUR_MS: '1000', EMAIL_SEQUENCE_SCAN_MS: '200' }),
    RESEND_BASE_URL: resend.url,
    RESEND_API_KEY: 're_live',
    RESEND_FROM: 'Shop <shop@example.com>',
    PUBLIC_URL: 'https://carts.example.com',
    UNSUBSCRIBE_SECRET: `${label}-secret`,
    UNSUBSCRIBE_MAILTO: '',
    ...env,
  }).catch(async (err: unknown) => {
    await Promise.all([resend.close(), shop?.close()]);
    throw err;
  });
  return {
    ...email,
    resend,
    ...(shop && { shopify: shop }),
    async stop() {
      try {
        await email.svc.stop();
        await dropDb(email.db);
      } finally {
        await Promise.all([resend.close(), shop?.close()]);
      }
    },
  };
}

export interface TemplateSpec {
  name: string;
  /** `<name> for {{contactEmail}}` unless given. */
  subject?: string;
  html?: string;
  delayHours?: number;
  active?: boolean;
}

export interface CampaignOptions {
  /** `Campaign <funnel>` unless given. */
  name?: string;
  /** Sent only when given (the campaign's default otherwise). */
  priority?: number;
  /** One template, 'First', sent at once, unless given. */
  templates?: TemplateSpec[];
  /** The integration's name: the funnel's id unless given. */
  integrationName?: string;
  reminderDelay?: number;
}

export interface FunnelCampaign {
  /** The campaign as created. */
  campaign: EmailCampaign;
  templateIds: number[];
  integrationId: number;
  /** The path of the integration's own webhook URL. */
  webhookPath: string;
}

/** A step offering its code, and the recovery link to apply it by. */
export const offerTemplate = (funnelId: string, html = '<p>Code: [{{discountCode}}]</p><p><a href="{{recoveryUrl}}">Complete Your Purchase</a></p>'): TemplateSpec => ({
  name: `Offer ${funnelId}`,
  subject: 'Your cart',
  html,
});

/** A campaign of templates in order, and an integration of `funnelId` running it. */
export async function funnelCampaign(email: EmailUnderTest, funnelId: string, options: CampaignOptions = {}): Promise<FunnelCampaign> {
  const { name = `Campaign ${funnelId}`, priority, templates = [{ name: 'First' }], integrationName = funnelId, reminderDelay = 1 } = options;
  const campaign = (await email.api('POST', '/api/email/campaigns', { body: { name, ...(priority !== undefined && { priority }) } })).body as EmailCampaign;
  const templateIds: number[] = [];
  for (const [i, t] of templates.entries()) {
    const r = await email.api('POST', '/api/resend/templates', {
      body: {
        campaign_id: campaign.id,
        name: t.name,
        subject: t.subject ?? `${t.name} for {{contactEmail}}`,
        from_name: 'Cart Team',
        html_content: t.html ?? '<p>Your cart is waiting.</p>',
        template_order: i + 1,
        delay_hours: t.delayHours ?? 0,
        ...(t.active !== undefined && { active: t.active }),
      },
    });
    expect(r.status).toBe(201);
    templateIds.push((r.body as { id: number }).id);
  }
  const integration = await email.api('POST', '/api/webhook-integrations', {
    body: { name: integrationName, funnel_id: funnelId, reminder_delay: reminderDelay, campaign_id: campaign.id },
  });
  expect(integration.status).toBe(201);
  const { id, webhook_url } = integration.body as { id: number; webhook_url: string };
  return { campaign, templateIds, integrationId: id, webhookPath: new URL(webhook_url).pathname };
}

/** A row of Email Logs, as the list answers it. */
export type EmailLog = { contact_id: string; email: string; status: string; message: string; timestamp: string };

/** The Email Logs rows of one contact. */
export const emailLogsOf = async (email: EmailUnderTest, contactId: string) =>
  ((await email.api('GET', '/api/email-logs')).body as EmailLog[]).filter((l) => l.contact_id === contactId);

/** Saves email's timing rules (quiet hours, frequency cap); the settings as saved. */
export async function saveTiming(email: EmailUnderTest, body: Partial<EmailTimingSettings>): Promise<EmailTimingSettings> {
  const r = await email.api('PUT', '/api/settings/timing', { body });
  expect(r.status).toBe(200);
  return r.body as EmailTimingSettings;
}

/** The sender's contact_created for `funnelId`, taken. */
export async function postContact(email: EmailUnderTest, funnelId: string, contactId: string, to: string, extra: Record<string, unknown> = {}): Promise<void> {
  expect((await email.api('POST', '/api/webhook', { body: contactCreated(contactId, to, funnelId, extra), user: null })).status).toBe(200);
}
