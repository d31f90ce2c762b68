import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { NotFoundError, nextId } from '@act/service-kit';
import type { CampaignRequest, EmailCampaign } from '@act/contracts/src/email-api';
import { campaignModel, toCampaign, type CampaignDoc } from './model';

export type CampaignInput = Required<Pick<CampaignRequest, 'name'>> & {
  description: string | null;
  type: string;
  active: boolean;
} & Partial<Pick<CampaignRequest, 'on_cart_change' | 'priority'>>;
export type CampaignUpdate = Pick<CampaignRequest, 'name'> & Partial<Omit<CampaignRequest, 'name'>>;

export class CampaignsService {
  readonly coll: Collection<CampaignDoc>;

  constructor(private readonly conn: Connection) {
    this.coll = campaignModel(conn).collection as unknown as Collection<CampaignDoc>;
  }

  async list(): Promise<EmailCampaign[]> {
    const docs = await this.coll
      .find({}, { projection: { _id: 0 } })
      .sort({ created_at: -1, id: -1 })
      .toArray();
    return docs.map(toCampaign);
  }

  async find(id: number): Promise<CampaignDoc | null> {
    return this.coll.findOne({ id }, { projection: { _id: 0 } });
  }

  async get(id: number): Promise<EmailCampaign> {
    const doc = await this.find(id);
    if (!doc) throw new NotFoundError('Campaign not found');
    return toCampaign(doc);
  }

  async create(input: CampaignInput): Promise<EmailCampaign> {
    const now = new Date();
    const doc: CampaignDoc = {
      id: await nextId(this.conn, 'email_campaigns'),
      name: input.name,
      description: input.description,
      type: input.type,
      active: input.active,
      on_cart_change: input.on_cart_change ?? 'continue',
      priority: input.priority ?? 0,
      created_at: now,
      updated_at: now,
    };
    await this.coll.insertOne({ ...doc });
    return toCampaign(doc);
  }

  /** PUT with the dialog's fields; a field left out keeps its value (the UI always sends all of them). */
  async update(id: number, input: CampaignUpdate): Promise<EmailCampaign> {
    const set: Partial<CampaignDoc> = { name: input.name, updated_at: new Date() };
    if (input.description !== undefined) set.description = input.description;
    if (input.type !== undefined) set.type = input.type;
    if (input.active !== undefined) set.active = input.active;
    if (input.on_cart_change !== undefined) set.on_cart_change = input.on_cart_change;
    if (input.priority !== undefined) set.priority = input.priority;
    const doc = await this.coll.findOneAndUpdate(
      { id },
      { $set: set },
      { returnDocument: 'after', projection: { _id: 0 } },
    );
    if (!doc) throw new NotFoundError('Campaign not found');
    return toCampaign(doc as CampaignDoc);
  }

  /** The spec's rule: the campaign goes, its templates stay with their campaign_id (orphaned). */
  async remove(id: number): Promise<void> {
    const { deletedCount } = await this.coll.deleteOne({ id });
    if (deletedCount === 0) throw new NotFoundError('Campaign not found');
  }
}
