import type { Connection } from 'mongoose';
import { clearTestDeliveries } from './test-deliveries';
import {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  insertWithNextId,
  signingFields,
  validate,
  type Logger,
  type SecretBox,
} from '@act/service-kit';
import { smsIntegrationSchema, type SmsIntegration } from '@act/contracts/src/sms-api';
import type { IntegrationSigningPatch } from '@act/contracts/src/webhook-signing';
import {
  integrationWebhookUrl,
  newWebhookKey,
  sendTestDelivery,
  signingStateOf,
  weakensSigning,
  type SigningState,
  type SourceId,
  type TestDeliveryResult,
} from '@act/sources';
import { integrationModel, type IntegrationDoc } from './model';
import { requireObject } from '../http';
import { campaignModel } from '../campaigns/model';

/** Who asks for a change: whether they may weaken an integration's signing. */
export interface Actor {
  admin: boolean;
}

export class IntegrationService {
  private readonly Integration;
  private readonly Campaign;
  constructor(
    private readonly conn: Connection,
    private readonly signing: { publicUrl: string; box: SecretBox; testBaseUrl: string | null; logger: Logger },
    /** Told after every change, so this instance's webhook path sees it at once. */
    private readonly onChange: () => void = () => undefined,
  ) {
    this.Integration = integrationModel(conn);
    this.Campaign = campaignModel(conn);
  }

  async list(): Promise<SmsIntegration[]> {
    const [docs, campaigns] = await Promise.all([
      this.Integration.find({}).sort({ created_at: -1, id: -1 }).lean<IntegrationDoc[]>(),
      this.Campaign.find({}, { id: 1, name: 1, integration_id: 1, active: 1 }).sort({ id: 1 }).lean<CampaignRef[]>(),
    ]);
    return docs.map((d) => toApiIntegration(d, sendingCampaignName(d, campaigns), this.signing.publicUrl));
  }

  async create(body: unknown, actor: Actor): Promise<SmsIntegration> {
    const input = await validate(smsIntegrationSchema, requireObject(body));
    await this.guardSigning(actor, null, { id: 0, funnel_id: input.funnel_id, active: input.active, signed: false });
    await this.checkRefs(input.sms_campaign_id ?? null, input.funnel_id, input.active, null);
    const now = new Date();
    const fields: Omit<IntegrationDoc, 'id'> = {
      name: input.name,
      funnel_id: input.funnel_id,
      sms_campaign_id: input.sms_campaign_id ?? null,
      reminder_delay: input.reminder_delay,
      active: input.active,
      checkout_fallback_url: input.checkout_fallback_url ?? null,
      webhook_key: newWebhookKey(),
      webhook_secret: null,
      webhook_source: null,
      created_at: now,
      updated_at: now,
    };
    const id = await insertWithNextId(this.conn, 'sms_integrations', async (id) => {
      await this.Integration.create({ id, ...fields });
      return id;
    });
    this.onChange();
    // Contacts of this funnel that came in before it existed (earlier-contacts.ts: PICKUP_WINDOW_DAYS back).
    if (this.pickUpEarlier) await this.pickUpEarlier({ id, ...fields } as IntegrationDoc);
    return this.get(id);
  }

  /** Set once the contacts service exists (service.ts): takes a new integration's earlier contacts. */
  pickUpEarlier: ((integration: IntegrationDoc) => Promise<number>) | null = null;

  /** The form sends the whole body; a field left out keeps its value. */
  async update(
    id: number,
    body: unknown,
    signing: IntegrationSigningPatch | null,
    actor: Actor,
  ): Promise<SmsIntegration> {
    const current = await this.Integration.findOne({ id }).lean<IntegrationDoc>();
    if (!current) throw new NotFoundError('SMS webhook integration not found');
    const input = await validate(smsIntegrationSchema, mergeBody(current, body));
    await this.guardSigning(actor, signingStateOf(current), {
      id,
      funnel_id: input.funnel_id,
      active: input.active,
      signed: signing?.webhook_secret !== undefined ? signing.webhook_secret !== null : Boolean(current.webhook_secret),
    });
    await this.checkRefs(input.sms_campaign_id ?? null, input.funnel_id, input.active, id);
    await this.Integration.updateOne(
      { id },
      {
        $set: {
          name: input.name,
          funnel_id: input.funnel_id,
          sms_campaign_id: input.sms_campaign_id ?? null,
          reminder_delay: input.reminder_delay,
          active: input.active,
          checkout_fallback_url: input.checkout_fallback_url ?? null,
          ...(signing ? signingFields(signing, this.signing.box) : {}),
          updated_at: new Date(),
        },
      },
    );
    this.onChange();
    return this.get(id);
  }

  async remove(id: number, actor: Actor): Promise<void> {
    if (!actor.admin) {
      const current = await this.Integration.findOne({ id }).lean<IntegrationDoc>();
      if (current) await this.guardSigning(actor, signingStateOf(current), null);
    }
    const res = await this.Integration.deleteOne({ id });
    this.onChange();
    if (res.deletedCount === 0) throw new NotFoundError('SMS webhook integration not found');
    // Campaigns pointing here become 'No Integration' rather than pointing at nothing.
    await this.Campaign.updateMany({ integration_id: id }, { $set: { integration_id: null, updated_at: new Date() } });
  }

  async get(id: number): Promise<SmsIntegration> {
    const d = await this.Integration.findOne({ id }).lean<IntegrationDoc>();
    if (!d) throw new NotFoundError('SMS webhook integration not found');
    const campaigns = await this.Campaign.find(
      { $or: [{ id: d.sms_campaign_id ?? -1 }, { integration_id: d.id }] },
      { id: 1, name: 1, integration_id: 1, active: 1 },
    )
      .sort({ id: 1 })
      .lean<CampaignRef[]>();
    return toApiIntegration(d, sendingCampaignName(d, campaigns), this.signing.publicUrl);
  }

  /** "Send test delivery": a sample of the sender, signed with the integration's secret, to its own public URL. */
  async testDelivery(id: number, source: SourceId | undefined): Promise<TestDeliveryResult> {
    const d = await this.Integration.findOne({ id }).lean<IntegrationDoc>();
    if (!d) throw new NotFoundError('SMS webhook integration not found');
    if (!d.webhook_key) throw new ConflictError('The integration has no URL yet; retry shortly');
    const secret = d.webhook_secret ? this.signing.box.open(d.webhook_secret) : null;
    const base = this.signing.testBaseUrl ?? this.signing.publicUrl;
    const url = integrationWebhookUrl(base, '/api/sms/webhook', d.webhook_key);
    try {
      // Its contact is stored as a test (the webhook intake), so it is never texted.
      return await sendTestDelivery({
        source: source ?? d.webhook_source ?? 'clickfunnels2',
        url,
        secret,
        funnelId: d.funnel_id,
      });
    } catch (err) {
      this.signing.logger.warn({ err: (err as Error).message, url }, 'test delivery failed');
      throw new BadGatewayError(`The test delivery could not reach ${url}`);
    }
  }

  /** Removes every test delivery's contact and its log rows on this side (test-deliveries.ts). */
  clearTestDeliveries(): Promise<{ contacts: number; logs: number }> {
    return clearTestDeliveries(this.conn);
  }

  /** Integrations stored before per-integration URLs existed get their key (each its own, once). */
  async ensureKeys(): Promise<void> {
    const missing = await this.Integration.find({ webhook_key: { $exists: false } }, { id: 1 }).lean();
    for (const { id } of missing)
      await this.Integration.updateOne(
        { id, webhook_key: { $exists: false } },
        { $set: { webhook_key: newWebhookKey() } },
      );
    if (missing.length) this.onChange();
  }

  /**
   * A change that would leave a signed funnel taking unsigned deliveries is an admin's (403 otherwise, before
   * anything is written); the audit middleware records it like any other change.
   */
  private async guardSigning(actor: Actor, before: SigningState | null, after: SigningState | null): Promise<void> {
    if (actor.admin) return;
    const others = await this.Integration.find({}, { id: 1, funnel_id: 1, active: 1, webhook_secret: 1 }).lean<
      IntegrationDoc[]
    >();
    const what = weakensSigning(before, after, others.map(signingStateOf));
    if (what) throw new ForbiddenError(`Admin access required to ${what}`);
  }

  private async checkRefs(campaignId: number | null, funnelId: string, active: boolean, selfId: number | null) {
    if (campaignId !== null && !(await this.Campaign.exists({ id: campaignId })))
      throw new BadRequestError('Campaign not found');
    // Funnel deliveries go to the one active integration of the funnel, so two active ones would be ambiguous.
    if (active) {
      const clash = await this.Integration.findOne(
        { funnel_id: funnelId, active: true, ...(selfId ? { id: { $ne: selfId } } : {}) },
        { name: 1 },
      ).lean();
      if (clash)
        throw new ConflictError(`An active SMS integration already exists for funnel ${funnelId}: ${clash.name}`);
    }
  }
}

type CampaignRef = { id: number; name: string; integration_id?: number | null; active?: boolean };

/**
 * The campaign the integration's contacts get, by the sending rule (sequences/engine.ts campaignOf): the one chosen
 * on the integration, else the first active campaign linked to it. The card showed 'No Campaign' for the latter
 * while it was sending.
 */
export function sendingCampaignName(d: IntegrationDoc, campaigns: CampaignRef[]): string | null {
  const chosen = d.sms_campaign_id ? campaigns.find((c) => c.id === d.sms_campaign_id) : undefined;
  if (chosen) return chosen.name;
  return campaigns.find((c) => c.integration_id === d.id && c.active)?.name ?? null;
}

/** PATCH bodies overlay the stored values; the merged whole is validated with the create rules. */
export function mergeBody(current: object, body: unknown): Record<string, unknown> {
  requireObject(body);
  const base: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current)) if (k !== '_id' && !(v instanceof Date)) base[k] = v;
  return { ...base, ...(body as Record<string, unknown>) };
}

export function toApiIntegration(d: IntegrationDoc, campaignName: string | null, publicUrl: string): SmsIntegration {
  return {
    id: d.id,
    name: d.name,
    funnel_id: d.funnel_id,
    sms_campaign_id: d.sms_campaign_id ?? null,
    reminder_delay: d.reminder_delay,
    active: d.active,
    created_at: new Date(d.created_at).toISOString(),
    campaign_name: campaignName,
    checkout_fallback_url: d.checkout_fallback_url ?? null,
    webhook_url: d.webhook_key ? integrationWebhookUrl(publicUrl, '/api/sms/webhook', d.webhook_key) : '',
    signing: {
      has_secret: Boolean(d.webhook_secret),
      source: d.webhook_source ?? null,
      has_api_key: Boolean(d.sender_api_key),
      send_without_consent: d.send_without_consent === true,
    },
  };
}
