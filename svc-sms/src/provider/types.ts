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
  /** No attempt starts after this (the step's lease ends soon after): retries stop earlier than their own deadline. */
  notAfter?: Date;
  /**
   * When a retry may leave: a slot of the sender's pace no earlier than `notBefore` (its backoff), so retries count
   * against the pace like first attempts instead of going out on top of it; null when there is none before `until`
   * (the retry then leaves when its backoff ends, as it does without this).
   */
  retrySlot?: (notBefore: Date, until: Date) => Promise<Date | null>;
  /**
   * Told when Twilio answered an attempt with a refusal (any 4xx / 5xx): no message was created, so the attempt's
   * slot of the sender's pace went unused and is handed back. Not awaited; never throws.
   */
  slotUnused?: () => void;
  /** Told before each retry's wait: the message had an answer, and is not sent yet. Never throws. */
  retrying?: () => void;
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
  /**
   * Messages recently sent to `to` (created at or after `since`), newest first: after a crash between claiming a
   * step and recording its send, this tells whether the message went out. Optional: without it, such a step
   * counts as sent (at most once).
   */
  findSent?(to: string, since: Date): Promise<(SentSms & { body: string })[]>;
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
    /** What the transport said (host names, addresses): for the service's log, never for an answer or a log row. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Said when Twilio could not be reached at all (DNS, refused, reset, timeout): the cause stays in the log. */
export const TWILIO_UNREACHABLE = 'Could not reach Twilio (network error); try again later';
