import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { BadRequestError, NotFoundError, nextId } from '@act/service-kit';
import {
  FIRST_TEMPLATE_DELAY_HOURS,
  LATER_TEMPLATE_DELAY_HOURS,
  TEMPLATE_MESSAGES,
  type EmailTemplate,
  type TemplateForm,
  type TemplateRequest,
} from '@act/contracts/src/email-api';
import type { CampaignsService } from '../campaigns/service';
import { emailTemplateModel, toTemplate, type EmailTemplateDoc } from './model';
import { sanitizeTemplateHtml } from './sanitize';

/** A validated create body, plus whether the client gave `type` itself (else a campaign's type is used). */
export type TemplateCreateInput = Required<Omit<TemplateRequest, 'template_order' | 'delay_hours' | 'campaign_id'>> &
  Pick<TemplateRequest, 'template_order' | 'delay_hours'> & { campaign_id: number | null; typeGiven: boolean };

/** Sequence order: by template_order, ties by id (creation). */
export const TEMPLATE_SEQUENCE_SORT = { template_order: 1, id: 1 } as const;

export class TemplatesService {
  readonly coll: Collection<EmailTemplateDoc>;

  constructor(
    readonly conn: Connection,
    private readonly campaigns: CampaignsService,
  ) {
    this.coll = emailTemplateModel(conn).collection as unknown as Collection<EmailTemplateDoc>;
  }

  async list(): Promise<EmailTemplate[]> {
    const docs = await this.coll
      .find({}, { projection: { _id: 0 } })
      .sort({ id: 1 })
      .toArray();
    return docs.map(toTemplate);
  }

  /** A campaign's templates in sequence order; a deleted campaign's orphans are not listed (404). */
  async listByCampaign(campaignId: number): Promise<EmailTemplate[]> {
    if (!(await this.campaigns.find(campaignId))) throw new NotFoundError('Campaign not found');
    const docs = await this.coll
      .find({ campaign_id: campaignId }, { projection: { _id: 0 } })
      .sort(TEMPLATE_SEQUENCE_SORT)
      .toArray();
    return docs.map(toTemplate);
  }

  async find(id: number): Promise<EmailTemplateDoc | null> {
    return this.coll.findOne({ id }, { projection: { _id: 0 } });
  }

  async get(id: number): Promise<EmailTemplateDoc> {
    const doc = await this.find(id);
    if (!doc) throw new NotFoundError('Template not found');
    return doc;
  }

  /** The campaign's active templates in sequence order (what live sending sends). */
  async activeOfCampaign(campaignId: number): Promise<EmailTemplateDoc[]> {
    return this.coll
      .find({ campaign_id: campaignId, active: true }, { projection: { _id: 0 } })
      .sort(TEMPLATE_SEQUENCE_SORT)
      .toArray();
  }

  async create(input: TemplateCreateInput, form: TemplateForm): Promise<EmailTemplate> {
    const html = this.cleanHtml(input.html_content, form);
    let type = input.type;
    let template_order = input.template_order ?? 1;
    let delay_hours = input.delay_hours ?? FIRST_TEMPLATE_DELAY_HOURS;
    if (input.campaign_id !== null) {
      const campaign = await this.campaigns.find(input.campaign_id);
      if (!campaign) throw new BadRequestError('Campaign not found');
      if (!input.typeGiven) type = campaign.type;
      // Section 9: order 1 or the highest + 1; delay 0 h for the first template, 24 h for later ones.
      const last = await this.coll
        .find({ campaign_id: input.campaign_id }, { projection: { _id: 0, template_order: 1 } })
        .sort({ template_order: -1 })
        .limit(1)
        .toArray();
      if (input.template_order === undefined) template_order = last.length ? last[0]!.template_order + 1 : 1;
      if (input.delay_hours === undefined)
        delay_hours = last.length ? LATER_TEMPLATE_DELAY_HOURS : FIRST_TEMPLATE_DELAY_HOURS;
    }
    const now = new Date();
    const doc: EmailTemplateDoc = {
      id: await nextId(this.conn, 'email_templates'),
      name: input.name,
      subject: input.subject,
      from_name: input.from_name,
      html_content: html,
      type,
      active: input.active,
      campaign_id: input.campaign_id,
      template_order,
      delay_hours,
      created_at: now,
      updated_at: now,
    };
    await this.coll.insertOne({ ...doc });
    return toTemplate(doc);
  }

  async update(
    id: number,
    patch: Partial<Omit<EmailTemplateDoc, 'id' | 'created_at' | 'updated_at'>>,
    form: TemplateForm,
  ): Promise<EmailTemplate> {
    const set: Partial<EmailTemplateDoc> = { updated_at: new Date() };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) (set as Record<string, unknown>)[k] = v;
    if (set.html_content !== undefined) set.html_content = this.cleanHtml(set.html_content, form);
    if (typeof set.campaign_id === 'number' && !(await this.campaigns.find(set.campaign_id)))
      throw new BadRequestError('Campaign not found');
    const doc = await this.coll.findOneAndUpdate(
      { id },
      { $set: set },
      { returnDocument: 'after', projection: { _id: 0 } },
    );
    if (!doc) throw new NotFoundError('Template not found');
    return toTemplate(doc as EmailTemplateDoc);
  }

  async remove(id: number): Promise<void> {
    const { deletedCount } = await this.coll.deleteOne({ id });
    if (deletedCount === 0) throw new NotFoundError('Template not found');
  }

  /** Sanitised on write; content that sanitises to nothing (a lone script) counts as missing. */
  private cleanHtml(html: string, form: TemplateForm): string {
    const clean = sanitizeTemplateHtml(html);
    if (!clean) throw new BadRequestError(TEMPLATE_MESSAGES[form].content);
    return clean;
  }
}
