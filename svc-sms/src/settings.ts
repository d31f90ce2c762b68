import { TWILIO_CALL_TIMEOUT_MS } from './provider/twilio';
import { env, envInt } from '@act/service-kit';

/**
 * svc-sms settings beyond the shared ones (PORT, MONGODB_URI, NATS_URL, NATS_PREFIX, IDENTITY_SECRET, PUBLIC_URL).
 * Every one is read once at start; defaults are production values.
 */
export interface SmsSettings {
  /** Length of one "minute" of reminder_delay and delay_minutes. Tests shrink it (SMS_DELAY_UNIT_MS). */
  delayUnitMs: number;
  /**
   * SMS_DUE_SCAN_MS: 0 turns the due poller off (Agenda alone: a job per step); any other value leaves it on, every
   * instance asking the database for the steps that came due.
   */
  dueScanMs: number;
  /** How long the due poller waits after a look that found less than a full round (SMS_DUE_TICK_MS). */
  dueTickMs: number;
  /** Most due steps the due poller handles together, with one set of reads and writes (SMS_DUE_BURST). */
  dueBurst: number;
  /**
   * Bursts in flight at once per instance (SMS_DUE_BURSTS): a burst spends most of its time waiting on MongoDB and
   * Twilio, so the next ones' reads and writes go ahead meanwhile.
   */
  dueBursts: number;
  /** How long a step may reuse settings, integration, campaign and templates just read (SMS_RULES_CACHE_MS). */
  rulesCacheMs: number;
  /** Agenda polling interval in ms (SMS_AGENDA_PROCESS_EVERY_MS); each poll locks what is due before the next one. */
  agendaProcessEveryMs: number;
  /** Interval of the Agenda sweep job that catches anything missed (SMS_SWEEP_EVERY_MS). */
  sweepEveryMs: number;
  /** Newest N rows returned by the list calls (SMS_LIST_LIMIT). */
  listLimit: number;
  /** How long a step being sent holds its contact; a crashed instance's steps resume after it (SMS_STEP_LEASE_MS). */
  stepLeaseMs: number;
  /**
   * SMS_SEND_IN_FLIGHT_MS: how long after its claim a send may still be under way. No Twilio call starts after the
   * step's lease ends (the engine gives a send up, and the provider stops retrying, there), so the default is the
   * lease plus one call's timeout. A claim younger than this is not judged interrupted.
   */
  sendInFlightMs: number;
  /** How long the webhook path reuses its snapshot of active integrations (SMS_INTEGRATION_CACHE_MS; 0 = none). */
  integrationCacheMs: number;
  twilio: {
    accountSid: string;
    authToken: string;
    /** Redirects every Twilio API host to this origin (tests point it at a local fake); empty in production. */
    baseUrl: string;
    /** TWILIO_RETRY_DEADLINE_MS: how long one message is retried (429, 20429, 5xx, no answer) before it fails. */
    retryDeadlineMs: number;
    /** TWILIO_RETRY_BASE_MS: the first wait, doubling with jitter. */
    retryBaseMs: number;
    /** TWILIO_MAX_MPS: messages per second per sender, all instances together; 0 = by the sender's kind. */
    maxMps: number;
    /** TWILIO_TIMEOUT_MS: one Twilio call's time limit (a call with no answer by then is treated as ambiguous). */
    timeoutMs: number;
  };
}

export function readSettings(): SmsSettings {
  const dueBurst = envInt('SMS_DUE_BURST', 100);
  const retryDeadlineMs = envInt('TWILIO_RETRY_DEADLINE_MS', 60_000);
  const stepLeaseMs = envInt('SMS_STEP_LEASE_MS', 5 * 60_000);
  const timeoutMs = envInt('TWILIO_TIMEOUT_MS', TWILIO_CALL_TIMEOUT_MS);
  return {
    delayUnitMs: envInt('SMS_DELAY_UNIT_MS', 60_000),
    dueScanMs: envInt('SMS_DUE_SCAN_MS', 15_000),
    dueTickMs: envInt('SMS_DUE_TICK_MS', 250),
    dueBurst,
    dueBursts: envInt('SMS_DUE_BURSTS', 8),
    rulesCacheMs: envInt('SMS_RULES_CACHE_MS', 250),
    agendaProcessEveryMs: envInt('SMS_AGENDA_PROCESS_EVERY_MS', 30_000),
    sweepEveryMs: envInt('SMS_SWEEP_EVERY_MS', 60_000),
    listLimit: envInt('SMS_LIST_LIMIT', 5_000),
    stepLeaseMs,
    sendInFlightMs: envInt('SMS_SEND_IN_FLIGHT_MS', stepLeaseMs + timeoutMs),
    integrationCacheMs: envInt('SMS_INTEGRATION_CACHE_MS', 1_000),
    twilio: {
      accountSid: env('TWILIO_ACCOUNT_SID', ''),
      authToken: env('TWILIO_AUTH_TOKEN', ''),
      baseUrl: env('TWILIO_BASE_URL', ''),
      retryDeadlineMs,
      retryBaseMs: envInt('TWILIO_RETRY_BASE_MS', 500),
      // Messages per second per sender for the whole deployment; unset: by the sender's kind (provider/pacing.ts).
      maxMps: envInt('TWILIO_MAX_MPS', 0),
      timeoutMs,
    },
  };
}

/** The service's sense of time; passed into the domain so rules can be tested without waiting for the clock. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/**
 * The service's clock: the machine's, or (SMS_CLOCK_OFFSET_MS, a test switch) that far ahead or behind, so a test
 * can run the sequence at a chosen hour of a shopper's day.
 */
export function serviceClock(): Clock {
  const offset = envInt('SMS_CLOCK_OFFSET_MS', 0);
  return offset ? () => new Date(Date.now() + offset) : systemClock;
}
