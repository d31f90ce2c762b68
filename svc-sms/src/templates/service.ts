import type { Connection } from 'mongoose';
import { BadRequestError, NotFoundError, nextId, validate } from '@act/service-kit';
import {
  renderSmsTemplate,
  SAMPLE_PLACEHOLDER_VALUES,
  smsTemplateSchema,
  type SmsTemplate,
  type TwilioTestResponse,
} from '@act/contracts/src/sms-api';
import { templateModel, type TemplateDoc } from './model';
import { campaignModel } from '../campaigns/model';
import { mergeBody } from '../integrations/service';
import { requireObject } from '../http';
import type { ProviderService } from '../provider/service';
import { fitSmsMessage } from '@act/contracts/src/sms-segments';
import { SmsTemplatePreview } from './preview';

export class TemplateService {
  private readonly Template;
  private readonly Campaign;
  constructor(
    private readonly conn: Connection,
    private readonly provider: ProviderService,
    tracked?: ConstructorParameters<typeof SmsTemplatePreview>[1],
  ) {
    this.Template = templateModel(conn);
    this.Campaign = campaignModel(conn);
    this.preview = new SmsTemplatePreview(conn, tracked);
  }

  /** Templates as one contact (or sample data) would get them. */
  readonly preview: SmsTemplatePreview;

  async list(): Promise<SmsTemplate[]> {
    const docs = await this.Template.find({}).sort({ campaign_id: 1, sequence_order: 1, id: 1 }).lean<TemplateDoc[]>();
    return docs.map(toApiTemplate);
  }

  async get(id: number): Promise<SmsTemplate> {
    const d = await this.Template.findOne({ id }).lean<TemplateDoc>();
    if (!d) throw new NotFoundError('Template not found');
    return toApiTemplate(d);
  }

  async create(body: unknown): Promise<SmsTemplate> {
    const input = await validate(smsTemplateSchema, requireObject(body));
    await this.checkCampaign(input.campaign_id);
    // Section 5: a new template defaults to the campaign's highest order plus 1.
    let order = input.sequence_order;
    if (order === undefined) {
      const last = await this.Template.findOne({ campaign_id: input.campaign_id })
        .sort({ sequence_order: -1 })
        .lean<TemplateDoc>();
      order = (last?.sequence_order ?? 0) + 1;
    }
    const now = new Date();
    const id = await nextId(this.conn, 'sms_templates');
    await this.Template.create({
      id,
      campaign_id: input.campaign_id,
      name: input.name,
      message: input.message,
      sequence_order: order,
      delay_minutes: input.delay_minutes,
      active: input.active,
      created_at: now,
      updated_at: now,
    });
    return this.get(id);
  }

  async update(id: number, body: unknown): Promise<SmsTemplate> {
    const current = await this.Template.findOne({ id }).lean<TemplateDoc>();
    if (!current) throw new NotFoundError('Template not found');
    const input = await validate(smsTemplateSchema, mergeBody(current, body));
    await this.checkCampaign(input.campaign_id);
    await this.Template.updateOne(
      { id },
      {
        $set: {
          campaign_id: input.campaign_id,
          name: input.name,
          message: input.message,
          sequence_order: input.sequence_order ?? current.sequence_order,
          delay_minutes: input.delay_minutes,
          active: input.active,
          updated_at: new Date(),
        },
      },
    );
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    const res = await this.Template.deleteOne({ id });
    if (res.deletedCount === 0) throw new NotFoundError('Template not found');
  }

  /** The Test button: the template with sample placeholder values, or a chosen contact's as previewed, sent now to `phone`. */
  async sendTest(id: number, phone: string, contactId?: number | null): Promise<TwilioTestResponse> {
    const t = await this.get(id);
    const body = contactId
      ? fitSmsMessage(t.message, (await this.preview.inputFor({ contact_id: contactId, template_id: t.id })).input).message
      : renderSmsTemplate(t.message, SAMPLE_PLACEHOLDER_VALUES);
    return this.provider.sendTest({
      phone,
      body,
      templateId: t.id,
      sequenceOrder: t.sequence_order,
    });
  }

  private async checkCampaign(campaignId: number) {
    if (!(await this.Campaign.exists({ id: campaignId }))) throw new BadRequestError('Campaign not found');
  }
}

export function toApiTemplate(d: TemplateDoc): SmsTemplate {
  return {
    id: d.id,
    campaign_id: d.campaign_id,
    name: d.name,
    message: d.message,
    sequence_order: d.sequence_order,
    delay_minutes: d.delay_minutes,
    active: d.active,
    created_at: new Date(d.created_at).toISOString(),
  };
}
