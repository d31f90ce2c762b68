import type { MessagingServiceOption } from '@act/contracts/src/sms-api';

export interface OutgoingSms {
  /** E.164 destination. */
  to: string;
  body: string;
  /** Exactly one of messagingServiceSid / from is used; the messaging service wins when both are set. */
  messagingServiceSid?: string;
  from?: string;
  /** Where the provider posts delivery status updates. */
  statusCallback?: string;
}

export interface SentSms {
  sid: string;
  /** The provider's status word as returned (queued, accepted, ...). */
  status: string;
}

/** The small surface svc-sms needs from a text-message provider; Twilio implements it, tests swap the HTTP layer. */
export interface SmsProvider {
  /** Credentials are present (TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN). */
  readonly configured: boolean;
  send(msg: OutgoingSms): Promise<SentSms>;
  listMessagingServices(): Promise<MessagingServiceOption[]>;
  /** Fetches the account; resolves with its friendly name. */
  testConnection(): Promise<{ friendlyName: string; status: string }>;
}

/** A provider-side refusal (bad number, auth failure, ...), with the provider's message. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code?: number | string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
