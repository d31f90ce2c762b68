import type { Connection } from 'mongoose';
import {
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  insertWithNextId,
  isDuplicateKeyError,
  nextId,
  signingFields,
  type Logger,
  type SecretBox,
} from '@act/service-kit';
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
import {
  DEFAULT_FUNNEL_ID,
  DEFAULT_INTEGRATION_NAME,
  type IntegrationPatchRequest,
  type IntegrationRequest,
  type WebhookIntegration,
} from '@act/contracts/src/email-api';
import { integrationModel, toIntegration, type IntegrationDoc } from './model';
import type { IntegrationCache } from './cache';
import { saveReminderDelay } from '../settings/model';

/** What integrations need from contacts (kept narrow so the two features do not import each other's internals). */
export interface IntegrationContacts {
  countByIntegration(integrationId: number): Promise<number>;
  clearIntegration(integrationId: number): Promise<number>;
}

const FUNNEL_TAKEN = 'An integration with this funnel ID already exists';

/** Who asks for a change: whether they may weaken an integration's signing. */
export interface Actor {
  admin: boolean;
}

export class IntegrationsService {
  private readonly Model;

  constructor(
    private readonly conn: Connection,
    private readonly cache: IntegrationCache,
    private readonly contacts: IntegrationContacts,
    private readonly signing: { publicUrl: string; box: SecretBox; testBaseUrl: string | null; logger: Logger },
  ) {
    this.Model = integrationModel(conn);
  }

  private view(d: IntegrationDoc): WebhookIntegration {
    return toIntegration(d, this.signing.publicUrl);
  }

  async get(id: number): Promise<WebhookIntegration> {
    return this.view(await this.find(id));
  }

  async list(): Promise<WebhookIntegration[]> {
    const docs = await this.Model.collection
      .find({}, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
    return (docs as unknown as IntegrationDoc[]).map((d) => this.view(d));
  }

  async create(
    input: Required<Pick<IntegrationRequest, 'name' | 'funnel_id'>> & IntegrationRequest,
    actor: Actor,
  ): Promise<WebhookIntegration> {
    await this.guardSigning(actor, null, { id: 0, funnel_id: input.funnel_id, active: input.active ?? true, signed: false });
    if (await this.Model.exists({ funnel_id: input.funnel_id })) throw new ConflictError(FUNNEL_TAKEN);
    const now = new Date();
    const fields: Omit<IntegrationDoc, 'id'> = {
      name: input.name,
      funnel_id: input.funnel_id,
      active: input.active ?? true,
      reminder_delay: input.reminder_delay ?? 30,
      resend_template_id: input.resend_template_id ?? null,
      campaign_id: input.campaign_id ?? null,
      email_template: input.email_template ?? null,
      checkout_fallback_url: input.checkout_fallback_url ?? null,
      webhook_key: newWebhookKey(),
      webhook_secret: null,
      webhook_source: null,
      created_at: now,
      updated_at: now,
    };
    const doc = await insertWithNextId(
      this.conn,
      'webhook_integrations',
      async (id) => {
        const d: IntegrationDoc = { id, ...fields };
        await this.Model.collection.insertOne({ ...d });
        return d;
      },
      async () => ((await this.Model.exists({ funnel_id: input.funnel_id })) ? new ConflictError(FUNNEL_TAKEN) : null),
    );
    this.cache.invalidate();
    return this.view(doc);
  }

  async update(
    id: number,
    patch: IntegrationPatchRequest,
    signing: IntegrationSigningPatch | null,
    actor: Actor,
  ): Promise<WebhookIntegration> {
    const current = await this.find(id);
    await this.guardSigning(actor, signingStateOf(current), {
      id,
      funnel_id: patch.funnel_id ?? current.funnel_id,
      active: patch.active ?? current.active,
      signed: signing?.webhook_secret !== undefined ? signing.webhook_secret !== null : Boolean(current.webhook_secret),
    });
    const set: Partial<IntegrationDoc> = signing ? signingFields(signing, this.signing.box) : {};
    for (const key of [
      'name',
      'funnel_id',
      'active',
      'reminder_delay',
      'resend_template_id',
      'campaign_id',
      'email_template',
      'checkout_fallback_url',
    ] as const) {
      if (patch[key] !== undefined) (set as Record<string, unknown>)[key] = patch[key];
    }
    if (Object.keys(set).length === 0) throw new BadRequestError('No fields to update');
    const isDefault = current.funnel_id === DEFAULT_FUNNEL_ID;
    if (isDefault && set.funnel_id !== undefined && set.funnel_id !== DEFAULT_FUNNEL_ID) {
      throw new BadRequestError("The default integration's funnel ID cannot be changed");
    }
    if (
      set.funnel_id !== undefined &&
      set.funnel_id !== current.funnel_id &&
      (await this.Model.exists({ funnel_id: set.funnel_id }))
    ) {
      throw new ConflictError(FUNNEL_TAKEN);
    }
    set.updated_at = new Date();
    let updated: IntegrationDoc | null;
    try {
      updated = (await this.Model.collection.findOneAndUpdate(
        { id },
        { $set: set },
        { returnDocument: 'after', projection: { _id: 0 } },
      )) as unknown as IntegrationDoc | null;
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new ConflictError(FUNNEL_TAKEN);
      throw err;
    }
    if (!updated) throw new NotFoundError('Integration not found');
    // The default integration's delay is the global reminder delay (dashboard and settings show it).
    if (isDefault && set.reminder_delay !== undefined) await saveReminderDelay(this.conn, set.reminder_delay);
    this.cache.invalidate();
    return this.view(updated);
  }

  async clearContacts(id: number): Promise<{ message: string; cleared: number }> {
    const current = await this.find(id);
    if (current.funnel_id === DEFAULT_FUNNEL_ID)
      throw new BadRequestError('The contacts of the default integration cannot be cleared');
    const cleared = await this.contacts.clearIntegration(id);
    return { message: `Cleared ${cleared} contacts`, cleared };
  }

  async remove(id: number, actor: Actor): Promise<void> {
    const current = await this.find(id);
    await this.guardSigning(actor, signingStateOf(current), null);
    if (current.funnel_id === DEFAULT_FUNNEL_ID) throw new BadRequestError('The default integration cannot be deleted');
    if ((await this.contacts.countByIntegration(id)) > 0) {
      throw new ConflictError('Cannot delete integration with associated contacts. Clear the contacts first.');
    }
    await this.Model.collection.deleteOne({ id });
    this.cache.invalidate();
  }

  /** Created at first start (spec: funnel_id 'default'); two instances starting together create one. */
  async ensureDefault(reminderDelay: number): Promise<void> {
    if (await this.Model.exists({ funnel_id: DEFAULT_FUNNEL_ID })) return;
    const now = new Date();
    try {
      await this.Model.collection.updateOne(
        { funnel_id: DEFAULT_FUNNEL_ID },
        {
          $setOnInsert: {
            id: await nextId(this.conn, 'webhook_integrations'),
            name: DEFAULT_INTEGRATION_NAME,
            funnel_id: DEFAULT_FUNNEL_ID,
            active: true,
            reminder_delay: reminderDelay,
            resend_template_id: null,
            campaign_id: null,
            email_template: null,
            webhook_key: newWebhookKey(),
            webhook_secret: null,
            webhook_source: null,
            created_at: now,
            updated_at: now,
          },
        },
        { upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    this.cache.invalidate();
  }

  /** "Send test delivery": a sample of the sender, signed with the integration's secret, to its own public URL. */
  async testDelivery(id: number, source: SourceId | undefined): Promise<TestDeliveryResult> {
    const doc = await this.find(id);
    if (!doc.webhook_key) throw new ConflictError('The integration has no URL yet; retry shortly');
    const secret = doc.webhook_secret ? this.signing.box.open(doc.webhook_secret) : null;
    const url = integrationWebhookUrl(
      this.signing.testBaseUrl ?? this.signing.publicUrl,
      '/api/webhook',
      doc.webhook_key,
    );
    try {
      return await sendTestDelivery({
        source: source ?? doc.webhook_source ?? 'clickfunnels2',
        url,
        secret,
        funnelId: doc.funnel_id,
      });
    } catch (err) {
      this.signing.logger.warn({ err: (err as Error).message, url }, 'test delivery failed');
      throw new BadGatewayError(`The test delivery could not reach ${url}`);
    }
  }

  /** Integrations stored before per-integration URLs existed get their key (each its own, once). */
  async ensureKeys(): Promise<void> {
    const missing = await this.Model.collection
      .find({ webhook_key: { $exists: false } }, { projection: { _id: 0, id: 1 } })
      .toArray();
    for (const { id } of missing)
      await this.Model.collection.updateOne(
        { id, webhook_key: { $exists: false } },
        { $set: { webhook_key: newWebhookKey() } },
      );
    if (missing.length) this.cache.invalidate();
  }

  async setDefaultDelay(minutes: number): Promise<void> {
    await this.Model.collection.updateOne(
      { funnel_id: DEFAULT_FUNNEL_ID },
      { $set: { reminder_delay: minutes, updated_at: new Date() } },
    );
    this.cache.invalidate();
  }

  /**
   * A change that would leave a signed funnel taking unsigned deliveries is an admin's (403 otherwise, before
   * anything is written); the audit middleware records it like any other change.
   */
  private async guardSigning(actor: Actor, before: SigningState | null, after: SigningState | null): Promise<void> {
    if (actor.admin) return;
    const others = (await this.Model.collection
      .find({}, { projection: { _id: 0, id: 1, funnel_id: 1, active: 1, webhook_secret: 1 } })
      .toArray()) as unknown as IntegrationDoc[];
    const what = weakensSigning(before, after, others.map(signingStateOf));
    if (what) throw new ForbiddenError(`Admin access required to ${what}`);
  }

  private async find(id: number): Promise<IntegrationDoc> {
    const doc = (await this.Model.collection.findOne(
      { id },
      { projection: { _id: 0 } },
    )) as unknown as IntegrationDoc | null;
    if (!doc) throw new NotFoundError('Integration not found');
    return doc;
  }
}
