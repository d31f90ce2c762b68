import { setTimeout as sleep } from 'node:timers/promises';
import twilio from 'twilio';
import { BadRequestError, observeRateLimitWait, providerCalls, providerRetries, type Logger } from '@act/service-kit';
import { smsMessages } from '@act/contracts/src/sms-api';
import { ProviderError, TWILIO_UNREACHABLE, type OutgoingSms, type SentSms, type SmsProvider } from './types';
import { RedirectingRequestClient } from './redirect-client';

/** One Twilio call's time limit, unless the options say otherwise. */
export const TWILIO_CALL_TIMEOUT_MS = 15_000;

export interface TwilioProviderOptions {
  accountSid: string;
  authToken: string;
  /** Test-only redirection of the API hosts (TWILIO_BASE_URL); empty in production. */
  baseUrl?: string;
  timeoutMs?: number;
  /** How long one message is retried before it counts as failed (0: one attempt). */
  retryDeadlineMs?: number;
  retryBaseMs?: number;
  /** Where a retry that could not read the sender's pace is reported (it then goes after its backoff alone). */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Worth another attempt: Twilio's 429 / 20429 (too many requests) and 5xx say the message was not taken. No answer
 * at all (timeout, reset) is ambiguous: the message may have been taken, so Twilio is asked first (sendOnce).
 */
function retryable(e: ProviderError): boolean {
  if (e.status === 429 || e.code === 20429) return true;
  if (typeof e.status === 'number') return e.status >= 500;
  return e.detail !== undefined;
}

/**
 * Twilio's own refusals (a RestException: an HTTP status and a numeric Twilio code) keep their message, which says
 * what to fix. Anything else is the transport failing (`getaddrinfo ENOTFOUND api.twilio.com`, ECONNREFUSED, a
 * timeout): its text names our network, so callers get a plain message and the text goes to `detail` for the log.
 */
export function toProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { message?: string; code?: number | string; status?: number } | null;
  if (typeof e?.status === 'number' && typeof e?.code === 'number')
    return new ProviderError(e.message || `Twilio error ${e.code}`, e.code, e.status);
  if (typeof e?.status === 'number' && e.status >= 400)
    return new ProviderError(e.message || `Twilio answered ${e.status}`, e.code, e.status);
  return new ProviderError(TWILIO_UNREACHABLE, e?.code, undefined, e?.message ?? String(err));
}

export function createTwilioProvider({
  accountSid,
  authToken,
  baseUrl,
  timeoutMs = TWILIO_CALL_TIMEOUT_MS,
  retryDeadlineMs = 0,
  retryBaseMs = 500,
  logger,
}: TwilioProviderOptions): SmsProvider {
  const configured = !!accountSid && !!authToken;
  // Pointing it at Twilio itself (as .env.example shows) means no redirection: each product keeps its own host.
  const redirectTo = baseUrl && !/(^|\.)twilio\.com$/i.test(new URL(baseUrl).hostname) ? baseUrl : '';
  let client: twilio.Twilio | null = null;
  const getClient = () => {
    if (!configured) throw new BadRequestError(smsMessages.notConfigured);
    client ??= twilio(accountSid, authToken, {
      httpClient: redirectTo
        ? new RedirectingRequestClient(redirectTo, { timeout: timeoutMs })
        : new twilio.RequestClient({ timeout: timeoutMs }),
    });
    return client;
  };

  async function findSentTo(to: string, since: Date) {
    const c = getClient();
    try {
      // Newest first; no DateSent filter: a message still queued has no date_sent yet.
      const recent = await c.messages.list({ to, limit: 20 });
      return recent
        .filter((m) => m.dateCreated && m.dateCreated.getTime() >= since.getTime())
        .map((m) => ({ sid: m.sid, status: m.status, body: m.body }));
    } catch (err) {
      throw toProviderError(err);
    }
  }

  return {
    configured,
    /**
     * One message, retried with exponential backoff and jitter while Twilio says it was not taken, until the
     * deadline. Twilio has no idempotency key for messages: after an attempt with no answer, the account's recent
     * messages to that number are read first, and a match counts as sent.
     */
    async send(msg: OutgoingSms): Promise<SentSms> {
      const c = getClient();
      const deadline = Math.min(Date.now() + retryDeadlineMs, msg.notAfter?.getTime() ?? Infinity);
      let ambiguousSince: Date | null = null;
      for (let attempt = 1; ; attempt++) {
        if (ambiguousSince) {
          const found = await findSentTo(msg.to, ambiguousSince).catch(() => []);
          const same = found.find((m) => m.body === msg.body);
          if (same) return { sid: same.sid, status: same.status };
        }
        const startedAt = new Date(Date.now() - 60_000); // a minute of margin for Twilio's clock
        try {
          const res = await c.messages.create({
            to: msg.to,
            body: msg.body,
            ...(msg.messagingServiceSid ? { messagingServiceSid: msg.messagingServiceSid } : { from: msg.from }),
            ...(msg.statusCallback ? { statusCallback: msg.statusCallback } : {}),
          });
          providerCalls.inc({ provider: 'twilio', outcome: 'ok' });
          return { sid: res.sid, status: res.status };
        } catch (err) {
          const e = toProviderError(err);
          // An answered refusal created no message: Twilio's rate (messages, not calls) was not used by it.
          if (e.status !== undefined) msg.slotUnused?.();
          const wait = Math.round(Math.min(30_000, retryBaseMs * 2 ** (attempt - 1)) * (0.5 + Math.random() * 0.5));
          // A retry takes a slot of the sender's pace once its backoff is over, like a first attempt (a retry sent
          // outside the pace is an over-the-rate 429). No slot before the deadline (a backlog longer than it), or the
          // pace could not be read: the backoff alone; a message is not failed for want of a slot.
          let retryAt = Date.now() + wait;
          if (retryable(e) && retryAt <= deadline && msg.retrySlot) {
            const backoffEnd = retryAt;
            const until = new Date(Number.isFinite(deadline) ? deadline : backoffEnd + retryDeadlineMs);
            retryAt = await msg
              .retrySlot(new Date(backoffEnd), until)
              .then((slot) => slot?.getTime() ?? backoffEnd)
              .catch((err: unknown) => {
                // Not silent: a pace that cannot be read (MongoDB away) sends retries outside it, which is what earns
                // over-the-rate 429s; the log says why they came.
                logger?.warn({ err }, 'sender pace not read for a retry; it goes after its backoff alone');
                return backoffEnd;
              });
          }
          const retry = retryable(e) && retryAt <= deadline;
          providerCalls.inc({ provider: 'twilio', outcome: retry ? 'retryable' : 'failed' });
          if (!retry) {
            if (attempt === 1) throw e;
            throw new ProviderError(`${e.message} (after ${attempt} attempts)`, e.code, e.status, e.detail);
          }
          msg.retrying?.();
          const pause = Math.max(0, retryAt - Date.now());
          if (e.status === undefined) ambiguousSince ??= startedAt;
          providerRetries.inc({ provider: 'twilio' });
          if (e.status === 429 || e.code === 20429) observeRateLimitWait('twilio', '429', pause);
          await sleep(pause);
        }
      }
    },
    findSent: findSentTo,
    async listMessagingServices() {
      const c = getClient();
      try {
        const services = await c.messaging.v1.services.list({ limit: 200 });
        return services.map((s) => ({ sid: s.sid, friendlyName: s.friendlyName }));
      } catch (err) {
        throw toProviderError(err);
      }
    },
    async testConnection() {
      const c = getClient();
      try {
        const account = await c.api.v2010.accounts(accountSid).fetch();
        return { friendlyName: account.friendlyName, status: account.status };
      } catch (err) {
        throw toProviderError(err);
      }
    },
  };
}

/** Twilio's status words folded onto the log statuses of the spec (section 4). */
export function logStatusFromTwilio(
  status: string | undefined | null,
): 'queued' | 'sent' | 'delivered' | 'failed' | 'undelivered' | null {
  switch ((status ?? '').toLowerCase()) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return 'queued';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}
