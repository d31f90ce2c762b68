import { Resend } from 'resend';
import type { Connection } from 'mongoose';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSecretBox, observeRateLimitWait, providerCalls, providerRetries, type SecretBox } from '@act/service-kit';
import { resendConfigModel } from './config-model';
import { ResendPacer } from './resend-pace';
import { isRetryable, waitBeforeRetry, type BackoffPolicy, type ResendFailure } from './resend-retry';
import {
  NOT_CONFIGURED_MESSAGE,
  type CredentialSource,
  type EmailProvider,
  type OutgoingEmail,
  type ProviderStatus,
  type SendResult,
} from './types';

export interface ResendSettings {
  /** RESEND_API_KEY / RESEND_FROM: win over stored values. */
  envApiKey: string | null;
  envFrom: string | null;
  /** RESEND_WEBHOOK_SECRET: the webhook endpoint's signing secret; wins over the stored one. */
  envWebhookSecret?: string | null;
  /** RESEND_BASE_URL (tests: the local fake). Unset: the SDK's own default. */
  baseUrl: string | null;
  /** Per provider call; the SDK itself has no timeout. */
  timeoutMs: number;
  /** RESEND_RETRY_DEADLINE_MS: how long one email may be retried before it counts as failed. */
  retryDeadlineMs: number;
  backoff: BackoffPolicy;
  /** RESEND_MAX_RPS: calls per second for the whole deployment (Resend's default team limit: 5). */
  maxPerSecond: number;
  /**
   * RESEND_BATCH_LINGER_MS: emails asked for within this many ms of each other share one call to the batch endpoint
   * (up to 100); 0 sends each alone. Optional: absent means 0.
   */
  batchLingerMs?: number;
}

interface Credentials {
  apiKey: string | null;
  apiKeySource: CredentialSource;
  from: string | null;
  fromSource: CredentialSource;
}

/** Environment first, then the stored document (spec: environment values take precedence). */
export function resolveCredentials(
  settings: Pick<ResendSettings, 'envApiKey' | 'envFrom'>,
  stored: { api_key?: string | null; from?: string | null } | null,
): Credentials {
  const apiKey = settings.envApiKey || stored?.api_key || null;
  const from = settings.envFrom || stored?.from || null;
  return {
    apiKey,
    apiKeySource: settings.envApiKey ? 'env' : stored?.api_key ? 'stored' : null,
    from,
    fromSource: settings.envFrom ? 'env' : stored?.from ? 'stored' : null,
  };
}

/** What the page may show of a stored value. */
export interface StoredValueInfo {
  set_at: string | null;
  last4: string | null;
}

/** The last four characters of a value (all that is ever shown of it); null for none. */
const lastFour = (v: string | null): string | null => (v === null ? null : v.slice(-4));

/** Reads the stored document at most once per `ttlMs` (every send asks), and at once after a change. */
const STORED_TTL_MS = 2_000;

/** A pacer answer this quick was no wait, just its own round trip to MongoDB. */
const PACE_WAIT_NOISE_MS = 5;
/** How a call was paced before it reached the retry loop (dispatch). */
interface Paced {
  slotTaken?: boolean;
  /** When retrying stops (epoch ms); default: `retryDeadlineMs` from the first attempt. */
  deadline?: number;
}

const BUDGET_MESSAGE = 'Resend send budget not available before the retry deadline';
/** Resend's batch endpoint takes up to 100 emails a call. */
export const BATCH_MAX = 100;

/** Resend through its real SDK. One client per key (the key may change in the stored config). */
/** Which stored values a save changed. */
export interface StoredChange {
  apiKey: boolean;
  from: boolean;
  webhookSecret: boolean;
}

export class ResendProvider implements EmailProvider {
  private client: { key: string; resend: Resend } | null = null;
  private stored: {
    at: number;
    value: { api_key: string | null; from: string | null; webhook_secret: string | null } | null;
  } | null = null;

  private readonly pacer: ResendPacer | null;
  /** Emails waiting to leave together (RESEND_BATCH_LINGER_MS). */
  private queue: { email: OutgoingEmail; resolve: (r: SendResult) => void; deadline: number }[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** A call's slot of the budget is being waited for (dispatch). */
  private dispatching = false;

  /** Stored credentials are sealed under SECRETS_KEY, as the webhook signing secrets are. */
  private readonly box: SecretBox = createSecretBox();

  constructor(
    private readonly conn: Connection,
    private readonly settings: ResendSettings,
  ) {
    this.pacer = settings.maxPerSecond > 0 ? new ResendPacer(conn, settings.maxPerSecond) : null;
  }

  /** Stores a key, from-address and/or webhook secret, sealed (null clears; undefined keeps). */
  /**
   * Stores the values given (null clears one) and says which of them changed: a value equal to the one stored is
   * left as it is (its date too), so saving the same form again is no change.
   */
  async saveStored(input: { apiKey?: string | null; from?: string | null; webhookSecret?: string | null }): Promise<StoredChange> {
    const now = new Date();
    this.stored = null;
    const current = await this.storedValues();
    const changed: StoredChange = {
      apiKey: input.apiKey !== undefined && input.apiKey !== (current?.api_key ?? null),
      from: input.from !== undefined && input.from !== (current?.from ?? null),
      webhookSecret: input.webhookSecret !== undefined && input.webhookSecret !== (current?.webhook_secret ?? null),
    };
    const set: Record<string, unknown> = {};
    const seal = (v: string | null) => (v === null ? null : this.box.seal(v));
    if (changed.apiKey) Object.assign(set, { api_key: seal(input.apiKey!), api_key_set_at: input.apiKey === null ? null : now, api_key_last4: lastFour(input.apiKey!) });
    if (changed.from) Object.assign(set, { from: seal(input.from!), from_set_at: input.from === null ? null : now, from_last4: lastFour(input.from!) });
    if (changed.webhookSecret) set.webhook_secret = seal(input.webhookSecret!);
    if (Object.keys(set).length === 0) return changed;
    await resendConfigModel(this.conn).updateOne({ _id: 'default' }, { $set: { ...set, updated_at: now } }, { upsert: true });
    this.stored = null;
    return changed;
  }

  /** What may be shown of the stored values: when each was set and its last four characters, never the value. */
  async storedInfo(): Promise<{ apiKey: StoredValueInfo | null; from: StoredValueInfo | null }> {
    const doc = await resendConfigModel(this.conn).findById('default').lean();
    const info = (value: string | null | undefined, at: Date | null | undefined, last4: string | null | undefined) =>
      value ? { set_at: at ? new Date(at).toISOString() : null, last4: last4 ?? null } : null;
    return { apiKey: info(doc?.api_key, doc?.api_key_set_at, doc?.api_key_last4), from: info(doc?.from, doc?.from_set_at, doc?.from_last4) };
  }

  /** A sealed value opened; one stored before sealing is taken as it is (sealed at its next save). */
  private unseal(v: string | null | undefined): string | null {
    if (!v) return null;
    return v.startsWith('v1:') ? this.box.open(v) : v;
  }

  private async storedValues() {
    if (!this.stored || Date.now() - this.stored.at > STORED_TTL_MS) {
      const doc = await resendConfigModel(this.conn).findById('default').lean();
      this.stored = {
        at: Date.now(),
        value: doc ? { api_key: this.unseal(doc.api_key), from: this.unseal(doc.from), webhook_secret: this.unseal(doc.webhook_secret) } : null,
      };
    }
    return this.stored.value;
  }

  private async credentials(): Promise<Credentials> {
    return resolveCredentials(this.settings, await this.storedValues());
  }

  /** The webhook signing secret: the environment's, else the stored one; null when neither is set. */
  async webhookSecret(): Promise<string | null> {
    return this.settings.envWebhookSecret || (await this.storedValues())?.webhook_secret || null;
  }

  private resend(key: string): Resend {
    if (this.client?.key !== key)
      this.client = {
        key,
        resend: new Resend(key, this.settings.baseUrl ? { baseUrl: this.settings.baseUrl } : undefined),
      };
    return this.client.resend;
  }

  async status(): Promise<ProviderStatus> {
    const c = await this.credentials();
    return {
      configured: !!(c.apiKey && c.from),
      apiKeySource: c.apiKeySource,
      from: c.from,
      fromSource: c.fromSource,
      webhookSecretConfigured: !!(await this.webhookSecret()),
    };
  }

  /** The from-address as configured (it may carry a display name), with the template's from name in front. */
  static fromHeader(fromName: string, configuredFrom: string): string {
    const address = /<([^<>]+)>\s*$/.exec(configuredFrom)?.[1]?.trim() ?? configuredFrom.trim();
    // A display name cannot be allowed to inject headers or a second address.
    const name = fromName.replace(/[\r\n<>"\\]/g, '').trim();
    return name ? `"${name}" <${address}>` : address;
  }

  async fromAddress(): Promise<string | null> {
    return (await this.credentials()).from;
  }

  /**
   * One email, paced under the deployment's budget and retried while Resend's answer says a later attempt can
   * succeed (resend-retry.ts), with the same Idempotency-Key each time, until `retryDeadlineMs`: only then is it a
   * failure, with Resend's message and the number of attempts.
   */
  async send(email: OutgoingEmail): Promise<SendResult> {
    const linger = this.settings.batchLingerMs ?? 0;
    if (!(linger > 0)) return this.sendOne(email);
    return new Promise<SendResult>((resolve) => {
      this.queue.push({ email, resolve, deadline: Date.now() + this.settings.retryDeadlineMs });
      if (this.queue.length >= BATCH_MAX) this.dispatch();
      else this.flushTimer ??= setTimeout(() => this.dispatch(), linger);
    });
  }

  /**
   * Sends what waits, one call per slot of the budget. The slot is taken first and the call's emails chosen after:
   * emails that come while a call waits for the budget join it (up to 100), so a backlog leaves in full batches at
   * the budget's pace (choosing them first made a call of whatever had come within the linger, 10 or so under a
   * backlog, each costing a whole slot). Goes on while a full batch waits; fewer wait the linger again.
   */
  private dispatch(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.dispatching) return;
    this.dispatching = true;
    void this.dispatchLoop()
      .catch((err: Error) => {
        for (const it of this.queue.splice(0)) it.resolve({ ok: false, message: err.message, statusCode: null, attempts: 0 });
      })
      .finally(() => {
        this.dispatching = false;
        if (this.queue.length >= BATCH_MAX) this.dispatch();
        else if (this.queue.length > 0) this.flushTimer ??= setTimeout(() => this.dispatch(), this.settings.batchLingerMs);
      });
  }

  private async dispatchLoop(): Promise<void> {
    do {
      const paceStart = Date.now();
      // The oldest email's deadline: the queue is in arrival order.
      if (this.pacer && !(await this.pacer.take(this.queue[0]!.deadline))) {
        const now = Date.now();
        const expired = this.queue.filter((it, i) => i === 0 || it.deadline <= now + 1000);
        this.queue = this.queue.filter((it) => !expired.includes(it));
        for (const it of expired) it.resolve({ ok: false, message: BUDGET_MESSAGE, statusCode: null, attempts: 0 });
        continue;
      }
      observeRateLimitWait('resend', 'pacing', Date.now() - paceStart - PACE_WAIT_NOISE_MS);
      const items = this.queue.splice(0, BATCH_MAX);
      const sent =
        items.length === 1
          ? this.sendOne(items[0]!.email, { slotTaken: true, deadline: items[0]!.deadline }).then((r) => [r])
          : this.sendMany(
              items.map((i) => i.email),
              { slotTaken: true, deadline: items[0]!.deadline },
            );
      void sent.then(
        (results) => items.forEach((it, i) => it.resolve(results[i]!)),
        (err: Error) => items.forEach((it) => it.resolve({ ok: false, message: err.message, statusCode: null, attempts: 0 })),
      );
    } while (this.queue.length >= BATCH_MAX);
  }

  /**
   * Several emails in one call to `POST /emails/batch` (docs: "Batch Sending"; no attachments there, and none are
   * sent), each with its own headers (List-Unsubscribe). Resend's idempotency key covers the whole batch: it is
   * derived from the emails' own keys, so a retry of this batch (429, 5xx, no answer) is the same request and is
   * never taken twice. Permissive validation: an email Resend refuses (an invalid address) fails alone.
   */
  private async sendMany(emails: OutgoingEmail[], paced: Paced = {}): Promise<SendResult[]> {
    const c = await this.credentials();
    if (!c.apiKey || !c.from) return emails.map(() => ({ ok: false, message: NOT_CONFIGURED_MESSAGE, statusCode: null, attempts: 0 }));
    const key = `act-batch-${createHash('sha256')
      .update(emails.map((e) => e.idempotencyKey ?? `${e.to}\u0000${e.subject}`).join('\n'))
      .digest('hex')
      .slice(0, 48)}`;
    const payload = emails.map((e) => ({ from: e.from, to: [e.to], subject: e.subject, html: e.html, headers: e.headers }));
    const outcome = await this.untilAccepted(
      () =>
        this.resend(c.apiKey!).batch.send(payload, {
          idempotencyKey: key,
          batchValidation: 'permissive',
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        }),
      (answer) => answer?.data ?? null,
      paced,
    );
    if (!('value' in outcome)) return emails.map(() => failed(outcome, 'Resend refused the emails'));
    const attempts = outcome.attempts;
    const refused = new Map((outcome.raw?.errors ?? []).map((e) => [e.index, e.message]));
    const ids = [...outcome.value];
    return emails.map((_, i) => {
      const why = refused.get(i);
      if (why !== undefined) return { ok: false, message: why, statusCode: 422, attempts };
      const id = ids.shift()?.id;
      return id ? { ok: true, id, attempts } : { ok: false, message: 'Resend returned no message id', statusCode: 502, attempts };
    });
  }

  /** One email on its own (`POST /emails` with its own idempotency key). */
  private async sendOne(email: OutgoingEmail, paced: Paced = {}): Promise<SendResult> {
    const c = await this.credentials();
    if (!c.apiKey || !c.from) return { ok: false, message: NOT_CONFIGURED_MESSAGE, statusCode: null, attempts: 0 };
    const outcome = await this.untilAccepted(
      () =>
        this.resend(c.apiKey!).emails.send(
          { from: email.from, to: [email.to], subject: email.subject, html: email.html, headers: email.headers },
          { idempotencyKey: email.idempotencyKey, signal: AbortSignal.timeout(this.settings.timeoutMs) },
        ),
      (answer) => answer?.id ?? null,
      paced,
    );
    return 'value' in outcome ? { ok: true, id: outcome.value, attempts: outcome.attempts } : failed(outcome, 'Resend refused the email');
  }

  /**
   * One Resend call, paced under the deployment's budget and repeated (same request, same idempotency key) while
   * Resend's answer says a later attempt can succeed (resend-retry.ts), until `retryDeadlineMs`. `accept` picks what
   * a success carries; a success without it counts as a 502. `paced`: the first attempt's slot of the budget was
   * taken by the caller, and the deadline began when the email was asked for.
   */
  private async untilAccepted<D, T>(
    call: () => Promise<{ data: D | null; error: ResendFailure | null; headers?: Record<string, string> | null }>,
    accept: (data: D | null) => T | null,
    { slotTaken = false, deadline = Date.now() + this.settings.retryDeadlineMs }: Paced = {},
  ): Promise<{ value: T; raw: D | null; attempts: number } | { failure: ResendFailure; attempts: number }> {
    let attempts = 0;
    for (;;) {
      const paceStart = Date.now();
      if (!(attempts === 0 && slotTaken)) {
        if (this.pacer && !(await this.pacer.take(deadline))) return { failure: { message: BUDGET_MESSAGE, statusCode: null }, attempts };
        observeRateLimitWait('resend', 'pacing', Date.now() - paceStart - PACE_WAIT_NOISE_MS);
      }
      attempts += 1;
      const { data, error, headers } = await call();
      const value = error ? null : accept(data);
      if (value !== null) {
        providerCalls.inc({ provider: 'resend', outcome: 'ok' });
        return { value, raw: data, attempts };
      }
      const failure: ResendFailure = error ?? { message: 'Resend returned no message id', statusCode: 502 };
      const wait = waitBeforeRetry(attempts, headers ?? null, this.settings.backoff);
      const retry = isRetryable(failure) && Date.now() + wait <= deadline;
      providerCalls.inc({ provider: 'resend', outcome: retry ? 'retryable' : 'failed' });
      if (!retry) return { failure, attempts };
      providerRetries.inc({ provider: 'resend' });
      if (failure.statusCode === 429) observeRateLimitWait('resend', '429', wait);
      await sleep(wait);
    }
  }

  /** Lists the account's domains: proves the key works (and the base URL answers) without sending anything. */
  async testConnection(): Promise<{ success: boolean; message: string }> {
    const c = await this.credentials();
    if (!c.apiKey || !c.from) return { success: false, message: NOT_CONFIGURED_MESSAGE };
    const { data, error } = await this.resend(c.apiKey).domains.list(
      {},
      { signal: AbortSignal.timeout(this.settings.timeoutMs) },
    );
    if (error) {
      // A sending-only key may not list domains, yet it is valid for everything this product does.
      if ((error as { name?: string }).name === 'restricted_api_key')
        return { success: true, message: 'Connected to Resend (the API key has sending access only)' };
      return { success: false, message: `Resend connection failed: ${error.message}` };
    }
    const domains = (data as { data?: { name: string; status?: string }[] } | null)?.data ?? [];
    const names = domains.map((d) => (d.status ? `${d.name} (${d.status})` : d.name));
    return {
      success: true,
      message: names.length
        ? `Connected to Resend. Domains: ${names.join(', ')}`
        : 'Connected to Resend (no domains set up yet)',
    };
  }
}

/** A failed send as the caller logs it: Resend's message, and how many attempts when there were several. */
function failed({ failure, attempts }: { failure: ResendFailure; attempts: number }, fallback: string): SendResult {
  const message = failure.message || fallback;
  return {
    ok: false,
    message: attempts > 1 ? `${message} (after ${attempts} attempts)` : message,
    statusCode: failure.statusCode ?? null,
    attempts,
  };
}
