import type { Connection } from 'mongoose';
import {
  PREVIEW_CONTACTS_MAX,
  type EmailPreview,
  type EmailPreviewRequest,
  type PreviewContact,
  type PreviewContactsResponse,
} from '@act/contracts/src/template-preview';
import { SAMPLE_MESSAGE_INPUT } from '@act/contracts/src/message-variables';
import { NotFoundError, PreviewCodes, stepKey, type ClickTrackingSetting, type TrackedLinks } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import { composeEmail } from '../live-sending/compose';
import type { RecoveryUrls } from '../live-sending/recovery-urls';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';

type Row = Pick<ContactDoc, 'id' | 'email' | 'phone' | 'first_name' | 'cart' | 'created_at' | 'integration_id' | 'contact_id'>;
const FIELDS = { _id: 0, id: 1, email: 1, phone: 1, first_name: 1, cart: 1, created_at: 1, integration_id: 1, contact_id: 1 } as const;
/** How far back the default looks for a contact with a cart (newest first, by the created_at index). */
const RECENT_LOOKED_AT = 200;

function toPreviewContact(r: Row): PreviewContact {
  return {
    id: r.id,
    email: r.email,
    phone: r.phone ?? null,
    first_name: r.first_name ?? null,
    has_cart: !!r.cart && (r.cart.items.length > 0 || r.cart.total !== null),
    created_at: r.created_at.toISOString(),
  };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A template as one contact would get it: the composer of the live sends (Cart blocks, variables, escaping), the
 * contact's own recovery link as a send looks it up (the fallback past its deadline), the unsubscribe link of the
 * headers; the step's code as its send gives it, a unique one shown as "(unique code)" (so previewing never spends
 * one), and the link rewritten with it where the send rewrites it; with "Count clicks with: our link", the link is our
 * redirect's as the send puts it in (`<PUBLIC_URL>/r/` and a stand-in token: no link is made for a preview).
 */
export class TemplatePreview {
  private readonly codes: PreviewCodes;
  constructor(
    private readonly conn: Connection,
    private readonly recoveryUrls: RecoveryUrls,
    private readonly links: UnsubscribeLinkSettings,
    private readonly tracked?: { links: TrackedLinks; setting: ClickTrackingSetting },
  ) {
    this.codes = new PreviewCodes(conn);
  }

  private get contacts() {
    return contactModel(this.conn).collection;
  }

  /** Contacts whose address starts with `q` (the lower-cased email's index), or the newest, those with a cart first. */
  async search(q: string | undefined): Promise<PreviewContactsResponse> {
    const text = (q ?? '').trim().toLowerCase().slice(0, 200);
    const recent = await this.recent();
    const fallback = recent.find((r) => toPreviewContact(r).has_cart) ?? recent[0] ?? null;
    let rows: Row[];
    if (text) {
      rows = (await this.contacts
        .find({ email_lower: { $regex: `^${escapeRegex(text)}` } }, { projection: FIELDS })
        .limit(PREVIEW_CONTACTS_MAX)
        .toArray()) as unknown as Row[];
    } else {
      rows = [...recent].sort((a, b) => Number(toPreviewContact(b).has_cart) - Number(toPreviewContact(a).has_cart)).slice(0, PREVIEW_CONTACTS_MAX);
    }
    return { contacts: rows.map(toPreviewContact), default_contact_id: fallback?.id ?? null };
  }

  private async recent(): Promise<Row[]> {
    return (await this.contacts
      .find({}, { projection: FIELDS })
      .sort({ created_at: -1, _id: -1 })
      .limit(RECENT_LOOKED_AT)
      .toArray()) as unknown as Row[];
  }

  private async contactFor(req: Pick<EmailPreviewRequest, 'contact_id' | 'sample'>): Promise<Row | null> {
    if (req.sample) return null;
    if (req.contact_id) {
      const row = (await this.contacts.findOne({ id: req.contact_id }, { projection: FIELDS })) as unknown as Row | null;
      if (!row) throw new NotFoundError('Contact not found');
      return row;
    }
    const recent = await this.recent();
    return recent.find((r) => toPreviewContact(r).has_cart) ?? recent[0] ?? null;
  }

  /** What a preview (or a test send with a contact's data) writes the template for. */
  async inputFor(req: Pick<EmailPreviewRequest, 'contact_id' | 'sample' | 'discount_code' | 'template_id'>, now = new Date()) {
    const contact = await this.contactFor(req);
    let link = SAMPLE_MESSAGE_INPUT.recoveryUrl!;
    if (contact) {
      link = (await this.recoveryUrls.forContact(contact, now)) ?? this.recoveryUrls.sample();
    }
    const code = await this.codes.codeFor(
      req.template_id ? stepKey('email', req.template_id) : null,
      contact ? (contact.integration_id ?? null) : undefined,
      link,
      req.discount_code,
    );
    return {
      contact,
      to: contact?.email ?? SAMPLE_MESSAGE_INPUT.contactEmail!,
      firstName: contact ? contact.first_name : SAMPLE_MESSAGE_INPUT.firstName,
      cart: contact ? (contact.cart ?? null) : SAMPLE_MESSAGE_INPUT.cart,
      discountCode: code.code,
      recoveryUrl: code.recoveryUrl ?? link,
      incentiveNote: code.note,
    };
  }

  async render(req: EmailPreviewRequest, now = new Date()): Promise<EmailPreview> {
    const { contact, incentiveNote, ...input } = await this.inputFor(req, now);
    const tracked = input.recoveryUrl && this.tracked && (await this.tracked.setting.ourLink());
    const email = await composeEmail(
      { subject: req.subject ?? '', from_name: 'Preview', html_content: req.html_content },
      { ...input, ...(tracked ? { recoveryUrl: this.tracked!.links.previewUrl() } : {}), fromAddress: 'preview@example.invalid', links: this.links },
    );
    return { subject: email.subject, html: email.html, contact: contact && toPreviewContact(contact), incentive_note: incentiveNote };
  }
}
