import type { IncomingHttpHeaders } from 'node:http';
import type { Collection } from 'mongodb';
import { Webhook, WebhookVerificationError } from 'svix';
import { BadRequestError, ForbiddenError, UnauthorizedError, type Logger, type ReplayGuard } from '@act/service-kit';
import { EMAIL_DELIVERIES, type EmailDelivery, type EmailLogDoc } from '../email-logs/model';
import type { UnsubscribeService } from '../unsubscribe/service';

/** Resend's event types (docs: Webhooks → Event Types) and what each means for the email's log row. */
const DELIVERY_OF: Record<string, EmailDelivery> = {
  'email.delivery_delayed': 'delivery_delayed',
  'email.delivered': 'delivered',
  'email.opened': 'opened',
  'email.clicked': 'clicked',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
};

export const SUPPRESSED_BOUNCE = 'Suppressed: the address bounced (reported by Resend)';
export const SUPPRESSED_COMPLAINT = 'Suppressed: the recipient marked the email as spam (reported by Resend)';
export const NO_SECRET = 'Resend webhooks are refused: no signing secret is set (RESEND_WEBHOOK_SECRET)';

export interface ResendEvent {
  type: string;
  created_at?: string;
  data?: { email_id?: string; to?: string[] | string; bounce?: { type?: string; message?: string } };
}

export interface ResendEventsDeps {
  logs: Collection<EmailLogDoc>;
  unsubscribes: Pick<UnsubscribeService, 'add'>;
  replays: ReplayGuard;
  /** The endpoint's signing secret (`whsec_...`), environment first, then the stored one. */
  secret: () => Promise<string | null>;
  logger: Logger;
  /** A click also marks the email's contact as reached by a click (the revenue funnel reads it there). */
  clicked?: (messageId: string, at: Date) => Promise<void>;
}

/**
 * Resend's delivery events, signed by Svix (`svix-id`, `svix-timestamp`, `svix-signature`), verified with Svix's
 * own library. Each moves its email's log row forward; a bounce or a spam complaint also puts the address on the
 * unsubscribe list (source `suppressed`) so it is never mailed again. A redelivered event (same svix-id) does
 * nothing twice; one whose effects failed answers an error and is applied when Resend retries it.
 */
export class ResendEventsService {
  constructor(private readonly deps: ResendEventsDeps) {}

  async handle(raw: string, headers: IncomingHttpHeaders): Promise<{ status: string; delivery: EmailDelivery | null }> {
    const secret = await this.deps.secret();
    if (!secret) throw new ForbiddenError(NO_SECRET);
    const svix = {
      'svix-id': String(headers['svix-id'] ?? ''),
      'svix-timestamp': String(headers['svix-timestamp'] ?? ''),
      'svix-signature': String(headers['svix-signature'] ?? ''),
    };
    try {
      new Webhook(secret).verify(raw, svix);
    } catch (err) {
      if (err instanceof WebhookVerificationError) throw new UnauthorizedError(`Invalid Resend webhook signature: ${err.message}`);
      throw new UnauthorizedError('Invalid Resend webhook signature');
    }
    let event: ResendEvent;
    try {
      event = JSON.parse(raw) as ResendEvent;
    } catch {
      throw new BadRequestError('Invalid JSON body');
    }
    if (!event || typeof event.type !== 'string') throw new BadRequestError('Missing event type');
    // The claim makes two deliveries of one event (a retry racing the first attempt) apply it once; it is given
    // back when applying fails, or Resend's retry of an event we never applied (a lost bounce) would be a duplicate.
    const svixId = svix['svix-id'];
    if (!(await this.deps.replays.claim(0, svixId))) return { status: 'duplicate', delivery: null };
    try {
      return await this.apply(event);
    } catch (err) {
      await this.deps.replays.release(0, svixId).catch((releaseErr: unknown) => {
        this.deps.logger.error({ err: releaseErr, svixId }, 'could not release the claim of a Resend event that failed; its retries will be taken as duplicates');
      });
      throw err;
    }
  }

  /** The event's effects; each is idempotent, so applying an event again after a partial failure is harmless. */
  private async apply(event: ResendEvent): Promise<{ status: string; delivery: EmailDelivery | null }> {
    const delivery = DELIVERY_OF[event.type] ?? null;
    const messageId = typeof event.data?.email_id === 'string' ? event.data.email_id : null;
    if (delivery && messageId) await this.advance(messageId, delivery, event.created_at);
    const to = [event.data?.to ?? []].flat().filter((t): t is string => typeof t === 'string');
    // Resend sends email.bounced for permanent rejections; a bounce it marks Transient is not a reason to stop.
    const hardBounce = delivery === 'bounced' && !/transient/i.test(event.data?.bounce?.type ?? '');
    if (hardBounce || delivery === 'complained') {
      const reason = delivery === 'complained' ? SUPPRESSED_COMPLAINT : SUPPRESSED_BOUNCE;
      for (const address of to) await this.deps.unsubscribes.add(address, reason, 'suppressed');
      this.deps.logger.info({ to, type: event.type }, 'address suppressed after a Resend event');
    }
    return { status: 'ok', delivery };
  }

  /** Moves the row to `delivery` unless it is already further along (events may arrive late or out of order). */
  private async advance(messageId: string, delivery: EmailDelivery, at: string | undefined): Promise<void> {
    const earlier = EMAIL_DELIVERIES.slice(0, EMAIL_DELIVERIES.indexOf(delivery));
    const when = at && !Number.isNaN(Date.parse(at)) ? new Date(at) : new Date();
    await this.deps.logs.updateMany(
      { message_id: messageId, $or: [{ delivery: null }, { delivery: { $exists: false } }, { delivery: { $in: earlier } }] },
      { $set: { delivery, delivery_at: when } },
    );
    if (delivery === 'clicked') await this.deps.clicked?.(messageId, when);
  }
}
