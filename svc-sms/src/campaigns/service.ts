import type { Connection } from 'mongoose';
import { BadRequestError, NotFoundError, nextId, validate } from '@act/service-kit';
import { smsCampaignSchema, type SmsCampaign } from '@act/contracts/src/sms-api';
import { campaignModel, type CampaignDoc } from './model';
import { integrationModel } from '../integrations/model';
import { templateModel } from '../templates/model';
import { mergeBody } from '../integrations/service';
import { requireObject } from '../http';

export class CampaignService {
  private readonly Campaign;
  private readonly Integration;
  private readonly Template;
  constructor(private readonly conn: Connection) {
    this.Campaign = campaignModel(conn);
    this.Integration = integrationModel(conn);
    this.Template = templateModel(conn);
  }

  async list(): Promise<SmsCampaign[]> {
    const [docs, integrations, templates] = await Promise.all([
      this.Campaign.find({}).sort({ created_at: -1, id: -1 }).lean<CampaignDoc[]>(),
      this.Integration.find({}, { id: 1, name: 1 }).lean(),
      this.Template.find({}, 'campaign_id').lean<{ campaign_id: number }[]>(),
    ]);
    const names = new Map(integrations.map((i) => [i.id, i.name]));
    const counts = new Map<number, number>();
    for (const t of templates) counts.set(t.campaign_id, (counts.get(t.campaign_id) ?? 0) + 1);
    return docs.map((d) =>
      toApiCampaign(d, d.integration_id ? (names.get(d.integration_id) ?? null) : null, counts.get(d.id) ?? 0),
    );
  }

  async get(id: number): Promise<SmsCampaign> {
    const d = await this.Campaign.findOne({ id }).lean<CampaignDoc>();
    if (!d) throw new NotFoundError('Campaign not found');
    const [integration, count] = await Promise.all([
      d.integration_id ? this.Integration.findOne({ id: d.integration_id }, { name: 1 }).lean() : null,
      this.Template.countDocuments({ campaign_id: id }),
    ]);
    return toApiCampaign(d, integration?.name ?? null, count);
  }

  async create(body: unknown): Promise<SmsCampaign> {
    const input = await validate(smsCampaignSchema, requireObject(body));
    await this.checkIntegration(input.integration_id ?? null);
    const now = new Date();
    const id = await nextId(this.conn, 'sms_campaigns');
    await this.Campaign.create({
      id,
      name: input.name,
      integration_id: input.integration_id ?? null,
      active: input.active,
      on_cart_change: input.on_cart_change,
      priority: input.priority,
      created_at: now,
      updated_at: now,
    });
    return this.get(id);
  }

  async update(id: number, body: unknown): Promise<SmsCampaign> {
    const current = await this.Campaign.findOne({ id }).lean<CampaignDoc>();
    if (!current) throw new NotFoundError('Campaign not found');
    const input = await validate(smsCampaignSchema, mergeBody(current, body));
    await this.checkIntegration(input.integration_id ?? null);
    await this.Campaign.updateOne(
      { id },
      {
        $set: {
          name: input.name,
          integration_id: input.integration_id ?? null,
          active: input.active,
          on_cart_change: input.on_cart_change,
          priority: input.priority,
          updated_at: new Date(),
        },
      },
    );
    return this.get(id);
  }

  /** Deleting a campaign deletes its templates (spec section 2) and unlinks integrations that chose it. */
  async remove(id: number): Promise<{ templates_deleted: number }> {
    const res = await this.Campaign.deleteOne({ id });
    if (res.deletedCount === 0) throw new NotFoundError('Campaign not found');
    const t = await this.Template.deleteMany({ campaign_id: id });
    await this.Integration.updateMany(
      { sms_campaign_id: id },
      { $set: { sms_campaign_id: null, updated_at: new Date() } },
    );
    return { templates_deleted: t.deletedCount };
  }

  private async checkIntegration(integrationId: number | null) {
    if (integrationId !== null && !(await this.Integration.exists({ id: integrationId })))
      throw new BadRequestError('Integration not found');
  }
}

export function toApiCampaign(d: CampaignDoc, integrationName: string | null, templateCount: number): SmsCampaign {
  return {
    id: d.id,
    name: d.name,
    integration_id: d.integration_id ?? null,
    active: d.active,
    created_at: new Date(d.created_at).toISOString(),
    integration_name: integrationName,
    template_count: templateCount,
    on_cart_change: d.on_cart_change ?? 'continue',
    priority: d.priority ?? 0,
  };
}
