import type { Connection } from 'mongoose';
import type { ProviderStatusResponse } from '@act/contracts/src/provider-status';
import { twilioStatus } from './status';
import { BadRequestError, createIdAllocator, HttpError, type Logger } from '@act/service-kit';
import {
  smsMessages,
  type TwilioConfigInput,
  type MessagingServicesResponse,
  type TwilioConfigResponse,
  type TwilioTestResponse,
} from '@act/contracts/src/sms-api';
import type { ProviderConfigService } from './config';
import { statusCallbackUrl } from './config';
import { logStatusFromTwilio } from './twilio';
import type { ProviderError, SmsProvider } from './types';
import { optOutOnRefusal, sendFailureMessage } from './refusals';
import { optOutFilter, optOutModel } from '../contacts/model';
import { logModel } from '../logs/model';
import { toE164 } from '../contacts/phone';
import type { Clock } from '../settings';

export interface TestSendInput {
  phone: string;
  body: string;
  templateId?: number | null;
  sequenceOrder?: number | null;
}

/** Settings, connection test and test messages of /twilio-settings and the template Test button. */
export class ProviderService {
  private readonly OptOut;
  private readonly Log;
  private readonly allocLogId;
  constructor(
    private readonly conn: Connection,
    private readonly deps: {
      provider: SmsProvider;
      config: ProviderConfigService;
      publicUrl: string;
      now: Clock;
      logger?: Logger;
    },
  ) {
    this.OptOut = optOutModel(conn);
    this.Log = logModel(conn);
    this.allocLogId = createIdAllocator(conn, 'sms_logs', 50);
  }

  /** The message for the caller; a transport failure's own text (hosts, addresses) goes to the log only. */
  private reason(err: unknown, doing: string): string {
    const e = err as ProviderError;
    if (e?.detail) this.deps.logger?.warn({ err: e.detail, code: e.code }, `Twilio unreachable while ${doing}`);
    return (err as Error).message;
  }

  /** Whether Twilio is configured and how many steps wait for it (status.ts). */
  status(): Promise<ProviderStatusResponse> {
    return twilioStatus(this.conn, this.deps.provider.configured, this.deps.now());
  }

  async getConfig(): Promise<TwilioConfigResponse> {
    return { ...(await this.deps.config.get()), configured: this.deps.provider.configured };
  }

  async saveConfig(input: TwilioConfigInput): Promise<TwilioConfigResponse> {
    await this.deps.config.save(input);
    return this.getConfig();
  }

  async messagingServices(): Promise<MessagingServicesResponse> {
    if (!this.deps.provider.configured) return { services: [], message: smsMessages.notConfigured };
    try {
      return { services: await this.deps.provider.listMessagingServices() };
    } catch (err) {
      throw new HttpError(502, `Could not list messaging services: ${this.reason(err, 'listing messaging services')}`);
    }
  }

  /** Throws the not-configured 400 itself; a provider refusal comes back as `success: false`. */
  async testConnection(): Promise<TwilioTestResponse> {
    if (!this.deps.provider.configured) throw new BadRequestError(smsMessages.notConfigured);
    try {
      const account = await this.deps.provider.testConnection();
      return {
        success: true,
        message: `Twilio connection test successful: ${account.friendlyName} (${account.status})`,
      };
    } catch (err) {
      return { success: false, message: this.reason(err, 'testing the connection') };
    }
  }

  /** Sends one message now (no blackout: an operator is testing), logged like any other so callbacks update it. */
  async sendTest({
    phone: raw,
    body,
    templateId = null,
    sequenceOrder = null,
  }: TestSendInput): Promise<TwilioTestResponse> {
    if (!this.deps.provider.configured) throw new BadRequestError(smsMessages.notConfigured);
    const cfg = await this.deps.config.get();
    if (!cfg.messaging_service_sid && !cfg.phone_number) throw new BadRequestError(smsMessages.senderMissing);
    const phone = toE164(raw);
    if (!phone) throw new BadRequestError(smsMessages.phoneInvalid);
    if (await this.OptOut.exists(optOutFilter(phone)))
      throw new BadRequestError('This phone number replied STOP and has opted out of SMS; it must reply START first');
    let sent;
    try {
      sent = await this.deps.provider.send({
        to: phone,
        body,
        messagingServiceSid: cfg.messaging_service_sid || undefined,
        from: cfg.phone_number || undefined,
        statusCallback: statusCallbackUrl(cfg, this.deps.publicUrl),
      });
    } catch (err) {
      // A test message to a number that replied STOP is Twilio's news of that STOP, as on a sequence step.
      if (await optOutOnRefusal({ OptOut: this.OptOut, now: this.deps.now, logger: this.deps.logger }, phone, err))
        throw new HttpError(502, sendFailureMessage(err));
      throw new HttpError(502, this.reason(err, 'sending a test SMS') || 'Twilio refused the message');
    }
    const now = this.deps.now();
    await this.Log.create({
      id: await this.allocLogId(),
      phone,
      contact_id: null,
      contact_ref: null,
      integration_id: null,
      template_id: templateId,
      message: body,
      sequence_order: sequenceOrder,
      status: logStatusFromTwilio(sent.status) ?? 'queued',
      message_sid: sent.sid,
      timestamp: now,
      updated_at: now,
      error_message: null,
    });
    return { success: true, message: 'Test SMS sent successfully', sid: sent.sid };
  }
}
