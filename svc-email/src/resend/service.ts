import { randomUUID } from 'node:crypto';
import type { ResendConfigStatus, TestEmailResponse } from '@act/contracts/src/email-api';
import type { ResendProvider } from '../providers/resend';
import { NOT_CONFIGURED_MESSAGE } from '../providers/types';
import type { TemplatesService } from '../templates/service';
import type { TestSender } from '../templates/routes';
import type { UnsubscribeService } from '../unsubscribe/service';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import type { RecoveryUrls } from '../live-sending/recovery-urls';
import { composeEmail } from '../live-sending/compose';
import { TemplatePreview } from '../templates/preview';

export const UNSUBSCRIBED_TEST_WARNING =
  'Warning: this address is on the unsubscribe list, so reminder and campaign emails are never sent to it.';

type TestAnswer = { status: number; body: TestEmailResponse & { error?: string } };

/** Provider status, connection test and template test sends (which do go out, spec section 1). */
export class ResendService implements TestSender {
  constructor(
    private readonly provider: ResendProvider,
    private readonly templates: TemplatesService,
    private readonly unsubscribes: UnsubscribeService,
    private readonly recoveryUrls: RecoveryUrls,
    private readonly links: UnsubscribeLinkSettings,
    readonly liveSending: boolean,
    tracked?: ConstructorParameters<typeof TemplatePreview>[3],
  ) {
    this.preview = new TemplatePreview(templates.conn, recoveryUrls, links, tracked);
  }

  /** Templates as one contact (or sample data) would get them; test sends with a contact's data use it too. */
  readonly preview: TemplatePreview;

  async config(): Promise<ResendConfigStatus> {
    const [s, stored] = await Promise.all([this.provider.status(), this.provider.storedInfo()]);
    const message = !s.configured
      ? NOT_CONFIGURED_MESSAGE
      : this.liveSending
        ? 'Resend is configured; live sending is on: campaign emails are sent through Resend'
        : 'Resend is configured; live sending is off (EMAIL_LIVE_SENDING): reminders are logged as would_send, test emails are sent';
    return {
      ...s,
      // A stored from-address is write-only like the key; the environment's is the operator's own setting, shown.
      from: s.fromSource === 'env' ? s.from : null,
      stored,
      apiKeyConfigured: s.apiKeySource !== null,
      liveSending: this.liveSending,
      message,
      oneClickWarning: oneClickWarning(this.liveSending, this.links.publicUrl),
    };
  }

  testConnection(): Promise<{ success: boolean; message: string }> {
    return this.provider.testConnection();
  }

  /**
   * A template to one address, with the variables of a sample contact (that address, the fallback recovery URL), or
   * those of a chosen contact (its name, cart and link, as the preview shows them), and the same headers as a real
   * send. An unsubscribed address may be tested, with a warning in the answer. Not configured → 400 and nothing
   * sent; the provider refusing → 502 with its message.
   */
  async sendTest(templateId: number, to: string, contactId?: number | null): Promise<TestAnswer> {
    const template = await this.templates.get(templateId);
    const status = await this.provider.status();
    if (!status.configured || !status.from)
      return { status: 400, body: { success: false, message: NOT_CONFIGURED_MESSAGE, error: NOT_CONFIGURED_MESSAGE } };
    const shopper = contactId ? await this.preview.inputFor({ contact_id: contactId, template_id: templateId }) : null;
    const email = await composeEmail(template, {
      to,
      ...(shopper && { firstName: shopper.firstName, cart: shopper.cart, discountCode: shopper.discountCode }),
      recoveryUrl: shopper?.recoveryUrl ?? this.recoveryUrls.sample(),
      fromAddress: status.from,
      links: this.links,
      // Retries of this one test send must not become two emails.
      idempotencyKey: `act-test-${randomUUID()}`,
    });
    const sent = await this.provider.send(email);
    if (!sent.ok) return { status: 502, body: { success: false, message: sent.message, error: sent.message } };
    const unsubscribed = await this.unsubscribes.isUnsubscribed(to);
    const message = `Test email sent to ${to}` + (unsubscribed ? `. ${UNSUBSCRIBED_TEST_WARNING}` : '');
    return { status: 200, body: { success: true, message, messageId: sent.id } };
  }
}

/**
 * RFC 8058 one-click unsubscribe needs an https link: with live sending on and PUBLIC_URL on plain http (other than
 * this machine, where nobody receives mail), mail clients will not offer the button.
 */
export function oneClickWarning(liveSending: boolean, publicUrl: string): string | null {
  if (!liveSending) return null;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return null;
  }
  if (url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return null;
  return `PUBLIC_URL (${url.origin}) is not https: mail clients ignore the one-click unsubscribe link (RFC 8058) of the emails sent now. Serve the app over https and set PUBLIC_URL to it.`;
}
