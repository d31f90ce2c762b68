import type { Connection } from 'mongoose';
import {
  PREVIEW_CONTACTS_MAX,
  UNIQUE_CODE_PREVIEW,
  type EmailPreview,
  type EmailPreviewRequest,
  type PreviewContact,
  type PreviewContactsResponse,
} from '@act/contracts/src/template-preview';
import { SAMPLE_MESSAGE_INPUT } from '@act/contracts/src/message-variables';
import { NotFoundError } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import { composeEmail } from '../live-sending/compose';
import type { RecoveryUrls } from '../live-sending/recovery-urls';
import { recoveryExpired } from '../live-sending/steps';
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
 * headers; the step's code shown as "(unique code)" unless one is given, so previewing never spends a code.
 */
export class TemplatePreview {
  constructor(
    private readonly conn: Connection,
    private readonly recoveryUrls: RecoveryUrls,
    private readonly links: UnsubscribeLinkSettings,
  ) {}

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
  async inputFor(req: Pick<EmailPreviewRequest, 'contact_id' | 'sample' | 'discount_code'>, now = new Date()) {
    const contact = await this.contactFor(req);
    let recoveryUrl = SAMPLE_MESSAGE_INPUT.recoveryUrl!;
    if (contact) {
      const link = recoveryExpired(contact, now)
        ? await this.recoveryUrls.fallbackFor(contact.integration_id ?? null)
        : await this.recoveryUrls.forContact(contact.integration_id ?? null, contact.contact_id);
      recoveryUrl = link ?? this.recoveryUrls.sample();
    }
    return {
      contact,
      to: contact?.email ?? SAMPLE_MESSAGE_INPUT.contactEmail!,
      firstName: contact ? contact.first_name : SAMPLE_MESSAGE_INPUT.firstName,
      cart: contact ? (contact.cart ?? null) : SAMPLE_MESSAGE_INPUT.cart,
      discountCode: req.discount_code || UNIQUE_CODE_PREVIEW,
      recoveryUrl,
    };
  }

  async render(req: EmailPreviewRequest, now = new Date()): Promise<EmailPreview> {
    const { contact, ...input } = await this.inputFor(req, now);
    const email = await composeEmail(
      { subject: req.subject ?? '', from_name: 'Preview', html_content: req.html_content },
      { ...input, fromAddress: 'preview@example.invalid', links: this.links },
    );
    return { subject: email.subject, html: email.html, contact: contact && toPreviewContact(contact) };
  }
}
