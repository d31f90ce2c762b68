import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import {
  PREVIEW_CONTACTS_MAX,
  type PreviewContact,
  type PreviewContactsResponse,
  type SmsPreview,
  type SmsPreviewRequest,
} from '@act/contracts/src/template-preview';
import { SAMPLE_MESSAGE_INPUT, type MessageInput } from '@act/contracts/src/message-variables';
import { fitSmsMessage, typicalSmsSegments } from '@act/contracts/src/sms-segments';
import { usesCheckoutLink } from '@act/contracts/src/sms-api';
import { NotFoundError, PreviewCodes, stepKey, type ClickTrackingSetting, type TrackedLinks } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { linkAt } from '../sequences/contact-link';

type Row = Pick<ContactDoc, 'id' | 'email' | 'phone' | 'first_name' | 'cart' | 'created_at' | 'integration_id'>;
const FIELDS = { _id: 0, id: 1, email: 1, phone: 1, first_name: 1, cart: 1, created_at: 1, integration_id: 1 } as const;
/** How far back the default looks for a contact with a cart (newest first, by the created_at index). */
const RECENT_LOOKED_AT = 200;

const hasCart = (r: Row) => !!r.cart && (r.cart.items.length > 0 || r.cart.total !== null);
function toPreviewContact(r: Row): PreviewContact {
  return { id: r.id, email: r.email ?? null, phone: r.phone, first_name: r.first_name ?? null, has_cart: hasCart(r), created_at: new Date(r.created_at).toISOString() };
}
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An SMS template as one contact would get it: the renderer and the segment rule of the sequence's sends (the first
 * item's name shortened past the template's segments), the contact's own link or the integration's fallback as a
 * send picks them; the step's code as its send gives it, a unique one shown as "(unique code)" (so previewing never
 * spends one), and the link rewritten with it where the send rewrites it; with "Track clicks", the link is our short
 * redirect's as the send puts it in (`<PUBLIC_URL>/r/` and a stand-in as long as a token: no link is made for a
 * preview), so the segments are the send's.
 */
export class SmsTemplatePreview {
  private readonly contacts: Collection<Row>;
  private readonly Integration;
  private readonly codes: PreviewCodes;
  constructor(
    conn: Connection,
    private readonly tracked?: { links: TrackedLinks; setting: ClickTrackingSetting },
  ) {
    this.contacts = contactModel(conn).collection as unknown as Collection<Row>;
    this.Integration = integrationModel(conn);
    this.codes = new PreviewCodes(conn);
  }

  /** Contacts whose phone (with its country code, `+` optional) or email starts with `q`; else the newest, carts first. */
  async search(q: string | undefined): Promise<PreviewContactsResponse> {
    const text = (q ?? '').trim().slice(0, 200);
    const recent = await this.recent();
    const fallback = recent.find(hasCart) ?? recent[0] ?? null;
    let rows: Row[];
    if (!text) rows = [...recent].sort((a, b) => Number(hasCart(b)) - Number(hasCart(a))).slice(0, PREVIEW_CONTACTS_MAX);
    else {
      const digits = text.replace(/[\s().-]/g, '');
      const filter = /^\+?\d+$/.test(digits)
        ? { phone: { $regex: `^\\+${digits.replace(/^\+/, '')}` } }
        : { email: { $regex: `^${escapeRegex(text.toLowerCase())}` } };
      rows = await this.contacts.find(filter, { projection: FIELDS }).limit(PREVIEW_CONTACTS_MAX).toArray();
    }
    return { contacts: rows.map(toPreviewContact), default_contact_id: fallback?.id ?? null };
  }

  private recent(): Promise<Row[]> {
    return this.contacts.find({}, { projection: FIELDS }).sort({ created_at: -1, id: -1 }).limit(RECENT_LOOKED_AT).toArray();
  }

  private async contactFor(req: Pick<SmsPreviewRequest, 'contact_id' | 'sample'>): Promise<Row | null> {
    if (req.sample) return null;
    if (req.contact_id) {
      const row = await this.contacts.findOne({ id: req.contact_id }, { projection: FIELDS });
      if (!row) throw new NotFoundError('Contact not found');
      return row;
    }
    const recent = await this.recent();
    return recent.find(hasCart) ?? recent[0] ?? null;
  }

  /** What a preview (or a test send with a contact's data) fills the template with. */
  async inputFor(req: Pick<SmsPreviewRequest, 'contact_id' | 'sample' | 'discount_code' | 'template_id'>, now = new Date()) {
    const contact = await this.contactFor(req);
    const step = req.template_id ? stepKey('sms', req.template_id) : null;
    if (!contact) {
      const code = await this.codes.codeFor(step, undefined, SAMPLE_MESSAGE_INPUT.recoveryUrl!, req.discount_code);
      return { contact, note: code.note, input: { ...SAMPLE_MESSAGE_INPUT, discountCode: code.code, recoveryUrl: code.recoveryUrl } as MessageInput };
    }
    const integration = contact.integration_id === null ? null : await this.Integration.findOne({ id: contact.integration_id }).lean<IntegrationDoc>();
    const { link } = linkAt(contact, integration, now);
    const code = await this.codes.codeFor(step, contact.integration_id ?? null, link, req.discount_code);
    return {
      contact,
      note: code.note,
      input: { firstName: contact.first_name, cart: contact.cart ?? null, recoveryUrl: code.recoveryUrl, discountCode: code.code } as MessageInput,
    };
  }

  async render(req: SmsPreviewRequest): Promise<SmsPreview> {
    const { contact, note, input } = await this.inputFor(req);
    if (input.recoveryUrl && this.tracked && usesCheckoutLink(req.message) && (await this.tracked.setting.ourLink())) input.recoveryUrl = this.tracked.links.previewUrl();
    const fitted = fitSmsMessage(req.message, input);
    return {
      message: fitted.message,
      segments: fitted.segments.segments,
      encoding: fitted.segments.encoding,
      characters: fitted.segments.units,
      template_segments: typicalSmsSegments(req.message).segments,
      shortened: fitted.shortened,
      contact: contact && toPreviewContact(contact),
      incentive_note: note,
    };
  }
}
