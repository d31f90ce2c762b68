import twilio from 'twilio';
import type { Connection } from 'mongoose';
import { BadRequestError, ForbiddenError, type Logger } from '@act/service-kit';
import { logModel } from '../logs/model';
import { optOutModel } from '../contacts/model';
import type { ContactService } from '../contacts/service';
import type { WebhookEventService } from '../webhook-events/service';
import { logStatusFromTwilio } from '../provider/twilio';
import type { ProviderConfigService } from '../provider/config';
import { toE164 } from '../contacts/phone';
import type { Clock } from '../settings';

import { intentOf } from './keywords';


/** How far along a message is; a late or repeated callback never moves a log backwards. */
const RANK: Record<string, number> = { pending: 0, queued: 1, sent: 2, delivered: 3, undelivered: 3, failed: 3 };

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export interface CallbackDeps {
  conn: Connection;
  contacts: ContactService;
  events: WebhookEventService;
  config: ProviderConfigService;
  /** TWILIO_AUTH_TOKEN; without it no callback can be verified, so all are refused. */
  authToken: string;
  publicUrl: string;
  now: Clock;
  logger: Logger;
}

export class TwilioCallbackService {
  private readonly Log;
  private readonly OptOut;
  constructor(private readonly deps: CallbackDeps) {
    this.Log = logModel(deps.conn);
    this.OptOut = optOutModel(deps.conn);
  }

  /**
   * The URLs Twilio may have signed: the public one behind the gateway (the default status callback and the
   * address shown in the settings), and the delivery webhook URL an admin entered, each with the query string
   * the request came with.
   */
  async signedUrls(querystring: string): Promise<string[]> {
    const withQuery = (u: string) => (querystring && !u.includes('?') ? `${u}?${querystring}` : u);
    const urls = [withQuery(`${this.deps.publicUrl.replace(/\/$/, '')}/api/twilio/webhooks`)];
    const configured = (await this.deps.config.get()).webhook_url;
    if (configured) urls.push(withQuery(configured));
    return urls;
  }

  async verify(signature: string | undefined, querystring: string, params: Record<string, string>): Promise<void> {
    if (!this.deps.authToken)
      throw new ForbiddenError(
        'Twilio callbacks are refused: TWILIO_AUTH_TOKEN is not set, so signatures cannot be verified',
      );
    const urls = signature ? await this.signedUrls(querystring) : [];
    if (!urls.some((url) => twilio.validateRequest(this.deps.authToken, signature!, url, params))) {
      throw new ForbiddenError('Invalid Twilio signature');
    }
  }

  /** Handles a verified callback: a status update or an inbound message. */
  async handle(params: Record<string, string>): Promise<void> {
    const payload = JSON.stringify(params);
    if (params.Body !== undefined && params.From) {
      await this.deps.events.record('sms_reply', payload);
      await this.inbound(params.From, params.Body, params.OptOutType);
      return;
    }
    if (params.MessageSid && params.MessageStatus) {
      await this.deps.events.record('sms_delivery', payload);
      await this.statusUpdate(params.MessageSid, params.MessageStatus, params.ErrorCode, params.ErrorMessage);
      return;
    }
    await this.deps.events.record('invalid', payload);
    throw new BadRequestError('Unrecognised Twilio callback: expected MessageSid and MessageStatus, or From and Body');
  }

  private async statusUpdate(sid: string, twilioStatus: string, errorCode?: string, errorMessage?: string) {
    const status = logStatusFromTwilio(twilioStatus);
    if (!status) return;
    const lower = Object.keys(RANK).filter((s) => RANK[s]! < RANK[status]!);
    const set: Record<string, unknown> = { status, updated_at: this.deps.now() };
    if (errorCode || errorMessage)
      set.error_message = errorMessage
        ? `${errorMessage}${errorCode ? ` (Twilio error ${errorCode})` : ''}`
        : `Twilio error ${errorCode}`;
    await this.Log.updateOne({ message_sid: sid, status: { $in: lower } }, { $set: set });
  }

  private async inbound(from: string, body: string, optOutType?: string) {
    const phone = toE164(from) ?? from;
    const { intent, keyword } = intentOf(body, optOutType);
    if (intent === 'opt_out') {
      await this.OptOut.updateOne(
        { phone },
        { $set: { keyword, opted_out_at: this.deps.now() } },
        { upsert: true },
      );
      await this.deps.contacts.stopSequencesForPhone(phone);
      this.deps.logger.info({ phone, keyword }, 'phone opted out of SMS');
    } else if (intent === 'opt_in') {
      await this.OptOut.deleteOne({ phone });
      this.deps.logger.info({ phone, keyword }, 'phone opted back in to SMS');
    } else if (intent === 'help') {
      // Twilio answers HELP itself (or the Messaging Service's Advanced Opt-Out reply); nothing changes here.
      this.deps.logger.info({ phone, keyword }, 'phone asked for help');
    }
  }
}
