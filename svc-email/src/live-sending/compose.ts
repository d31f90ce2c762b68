import type { Cart } from '@act/contracts/src/cart';
import { renderMessage, type MessageInput } from '@act/contracts/src/message-variables';
import { renderCartBlocks } from '../cart-block/render';
import { ResendProvider } from '../providers/resend';
import type { OutgoingEmail } from '../providers/types';
import type { EmailTemplateDoc } from '../templates/model';
import { sanitizeTemplateHtml } from '../templates/sanitize';
import { listUnsubscribeHeaders, oneClickUrl, type UnsubscribeLinkSettings } from '../unsubscribe/links';

/** Sanitised template bodies by their stored HTML: a burst sends one template to up to 100 addresses. */
const sanitised = new Map<string, string>();
const SANITISED_KEPT = 200;

/** sanitizeTemplateHtml, once per distinct body (about 0.25 ms each: half of composing an email). */
function sanitisedOnce(html: string): string {
  let clean = sanitised.get(html);
  if (clean === undefined) {
    clean = sanitizeTemplateHtml(html);
    if (sanitised.size >= SANITISED_KEPT) sanitised.delete(sanitised.keys().next().value!);
    sanitised.set(html, clean);
  }
  return clean;
}

/** What one email is written for: the address, what is known of the shopper and their cart, the step's code and link. */
export interface ComposeInput {
  to: string;
  /** The shopper's first name when the sender gave one; the template's fallback ("there") otherwise. */
  firstName?: string | null;
  cart?: Cart | null;
  /** The step's code for this shopper, when it gives one. */
  discountCode?: string | null;
  /** The checkout link, the code applied where the shop takes one in the link. */
  recoveryUrl: string;
  fromAddress: string;
  links: UnsubscribeLinkSettings;
  idempotencyKey?: string;
}

/**
 * One email from a template for one address: HTML sanitised again (stored content may predate a rule), then
 * the variables filled in (message-variables.ts, the renderer the preview uses too) with HTML-escaped values; the
 * subject gets them as plain text. Every email carries List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
 * Cart blocks become the contact's cart (cart-block/render.ts). A pure function of the template and this input: a
 * variant's subject and content compose the same way.
 */
export async function composeEmail(
  template: Pick<EmailTemplateDoc, 'subject' | 'from_name' | 'html_content'>,
  { to, firstName, cart, discountCode, recoveryUrl, fromAddress, links, idempotencyKey }: ComposeInput,
): Promise<OutgoingEmail> {
  const input: MessageInput = {
    contactEmail: to,
    firstName: firstName ?? null,
    cart: cart ?? null,
    discountCode: discountCode ?? null,
    recoveryUrl,
    unsubscribeUrl: oneClickUrl(to, links),
  };
  return {
    from: ResendProvider.fromHeader(template.from_name, fromAddress),
    to,
    subject: renderMessage(template.subject, input, { escape: false }).replace(/[\r\n]+/g, ' '),
    // Cart blocks first (their rows escaped as they are written), then the variables over the whole document.
    html: renderMessage(await renderCartBlocks(sanitisedOnce(template.html_content), input.cart ?? null, recoveryUrl || null), input),
    headers: listUnsubscribeHeaders(to, links),
    idempotencyKey,
  };
}
