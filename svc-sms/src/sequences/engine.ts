import type { Connection } from 'mongoose';
import { FlowRunner, RecentReads, type FlowChannel, type GateAnswer, type TouchReader } from '@act/flow';
import type { Incentives, Logger } from '@act/service-kit';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import type { ContactDoc } from '../contacts/model';
import type { SequenceScheduler } from '../contacts/service';
import type { LogDoc } from '../logs/model';
import type { ProviderConfigService } from '../provider/config';
import type { SenderPacer } from '../provider/pacing';
import type { SmsProvider } from '../provider/types';
import type { Clock } from '../settings';
import { StepLogs } from './step-logs';
import { ContactSteps, type SmsLease } from './store';
import { SmsSteps, type SmsWork, type StepOutcome } from './steps';
import type { SmsTrackedLinks } from '../links';

export { NO_CHECKOUT_LINK, type StepOutcome } from './steps';

/**
 * A step in flight holds the contact for this long (next_at is moved to now + lease). Longer than any provider
 * call (15 s timeout), so a slow send is never taken over; a crashed sender's step is resumed after it.
 * SMS_STEP_LEASE_MS overrides it (the fault suite resumes a killed instance's steps after 20 s).
 */
export const DEFAULT_LEASE_MS = 5 * 60_000;
/** After an error mid-burst, when its contacts are due again. */
const ERROR_RETRY_MS = 10_000;

/**
 * Twilio not configured: the due poller finds nothing due for this long (the contacts wait), rather than reading the
 * same waiting contacts again at once after every full round.
 */
const NOT_CONFIGURED_PAUSE_MS = 1_000;

export interface SequenceEngineDeps {
  conn: Connection;
  provider: SmsProvider;
  config: ProviderConfigService;
  scheduler: SequenceScheduler;
  now: Clock;
  delayUnitMs: number;
  /** How long a step in flight holds its contact; default DEFAULT_LEASE_MS. */
  leaseMs?: number;
  /**
   * How long a step may reuse the provider settings, integration, campaign and templates another step just read
   * (SMS_RULES_CACHE_MS; 0: every burst reads them).
   */
  rulesCacheMs?: number;
  /**
   * How long after its claim a send may still be under way somewhere (the provider's retry deadline plus a call's
   * timeout): an interrupted claim younger than this is not judged yet. Default 0 (tests with no retries).
   */
  sendInFlightMs?: number;
  /** Send slots per sender shared by every instance (absent: no pacing). */
  pacer?: Pick<SenderPacer, 'reserve' | 'retrySlot' | 'refund'>;
  publicUrl: string;
  logger: Logger;
  /** Told of the logs each step writes, once written (attribution publishes its touches from them). */
  onLogged?: (logs: Omit<LogDoc, 'id'>[]) => Promise<void>;
  /** The person's sends on both channels (the attribution ledger), for the frequency cap; absent: no cap. */
  readTouches?: TouchReader;
  /** Each step's code for the shopper (none, fixed, pool, created in the shop). */
  incentives?: Incentives;
  /** Our redirect links (links/): the texts carry them when the operator tracks clicks. */
  trackedLinks?: SmsTrackedLinks;
}

/**
 * The SMS channel of the flow runner (@act/flow): each contact's campaign, one template per step, in
 * sequence_order: the first at remind_at, each next one delay_minutes after the previous send. Before any lease,
 * the gate holds every due step while Twilio is not configured. Then each step goes through the SMS steps
 * (steps.ts), where the timing rules move a step in the shopper's quiet hours or within the frequency cap to the
 * hold's end (never dropped); the logs are written and each contact's step written back. A burst of due contacts
 * and one contact's job take the same path.
 */
export class SequenceEngine {
  readonly runner: FlowRunner<ContactDoc, SmsWork, TwilioConfig>;
  private readonly store: ContactSteps;
  private readonly logs: StepLogs;
  private readonly recent: RecentReads;
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: SequenceEngineDeps) {
    const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.store = new ContactSteps(deps.conn);
    this.logs = new StepLogs(deps.conn, deps.now, deps.onLogged);
    this.recent = new RecentReads(deps.rulesCacheMs ?? 0);
    const steps = new SmsSteps({
      conn: deps.conn,
      store: this.store,
      logs: this.logs,
      recent: this.recent,
      provider: deps.provider,
      scheduler: deps.scheduler,
      pacer: deps.pacer,
      now: deps.now,
      delayUnitMs: deps.delayUnitMs,
      leaseMs,
      sendInFlightMs: deps.sendInFlightMs ?? 0,
      publicUrl: deps.publicUrl,
      logger: deps.logger,
      readTouches: deps.readTouches,
      incentives: deps.incentives,
      trackedLinks: deps.trackedLinks,
    });
    const channel: FlowChannel<ContactDoc, SmsWork, TwilioConfig> = {
      name: 'SMS',
      store: this.store,
      gate: (rows) => this.gate(rows),
      work: (c) => ({ ref: c.id, row: c, c }),
      steps: steps.all,
      recorder: {
        // A log per message or skip, then the step's outcome: lost with the process in between, they are redone
        // after the lease (a send is then found at the provider, not repeated).
        finish: async (works, { leaseId, until }) => {
          const lease: SmsLease = { leaseId, leaseUntil: until };
          await this.logs.writeFlow(works.filter((w) => w.flowLog).map((w) => w.flowLog!));
          await this.logs.writeAll(works.filter((w) => w.log).map((w) => w.log!));
          await this.writeHolds(works.filter((w) => w.held), lease);
          const ended = works.filter((w) => w.set);
          const stopped = await this.store.finishAll(
            ended.map((w) => ({ c: w.c, set: w.set!, sent: w.sent })),
            lease,
            deps.now(),
          );
          for (const w of ended) if (stopped.has(w.ref)) w.nextAt = null;
        },
        // After an error mid-burst (the store or a pacing race refusing a write) the contacts come back shortly, not
        // after the lease: a send the burst had claimed is then settled with the provider (steps.ts), not repeated.
        abandon: async (works, { leaseId, until }) => {
          const at = new Date(deps.now().getTime() + ERROR_RETRY_MS);
          const put = await this.store.putOff(
            { leaseId, leaseUntil: until },
            works.map((w) => ({ c: w.c, update: { $set: { next_at: at } } })),
          );
          await Promise.all([...put].map((ref) => deps.scheduler.schedule(ref, at).catch(() => undefined)));
        },
      },
      schedule: (ref, at) => deps.scheduler.schedule(ref, at),
    };
    this.runner = new FlowRunner(channel, { leaseMs, now: deps.now, logger: deps.logger });
  }

  /** Every due contact now, in bursts (Agenda's sweep job); resolves when every step taken is done. */
  sweep({ limit = 200, burst = 100, onReleased }: { limit?: number; burst?: number; onReleased?: () => void } = {}): Promise<number> {
    return this.runner.sweep({ limit, burst, bursts: 2, onReleased });
  }

  /** One step of one contact's sequence, if it is due (an Agenda job): a burst of one. */
  async processContact(ref: number): Promise<StepOutcome> {
    return (await this.runner.process(ref)) as StepOutcome;
  }

  async processBurst(refs: number[], onReleased?: () => void): Promise<Map<number, StepOutcome>> {
    return (await this.runner.processBurst(refs, onReleased)) as Map<number, StepOutcome>;
  }

  /** Held, not dropped: without credentials or a sender nothing can go out, and the contacts wait for them. */
  private async gate(due: ContactDoc[]): Promise<GateAnswer<TwilioConfig>> {
    const cfg = this.deps.provider.configured ? await this.recent.get('config', () => this.deps.config.get()) : null;
    if (!cfg || (!cfg.messaging_service_sid && !cfg.phone_number)) {
      this.warnNotConfigured(due.length);
      return { decided: new Map(due.map((c) => [c.id, 'not_configured'])), pauseMs: NOT_CONFIGURED_PAUSE_MS };
    }
    return { settings: cfg };
  }

  /**
   * Steps a timing rule held: the row is due again at the hold's end (the same step: no step + 1) while the lease is
   * still ours, and says until when (held_until); one log row each says why. A row no longer ours is not logged.
   */
  private async writeHolds(held: SmsWork[], lease: SmsLease): Promise<void> {
    if (held.length === 0) return;
    const now = this.deps.now();
    const changed = await this.store.putOff(
      lease,
      held.map((w) => ({ c: w.c, update: {
          $set: {
            next_at: w.held!.until,
            held_until: w.held!.until,
            held_by: w.held!.rule === 'quiet_hours' ? ('blackout' as const) : ('frequency_cap' as const),
            updated_at: now,
          },
        },
      })),
    );
    for (const w of held) if (!changed.has(w.ref)) w.nextAt = null;
    await this.logs
      .writeHeld(
        held.filter((w) => changed.has(w.ref)).map((w) => ({ c: w.c, ...w.held! })),
        now,
      )
      .catch((err) => this.deps.logger.warn({ err: (err as Error).message }, 'could not log the steps held by a timing rule'));
  }

  private warnNotConfigured(count: number) {
    const t = Date.now();
    if (t - this.lastNotConfiguredWarning < 60_000) return;
    this.lastNotConfiguredWarning = t;
    this.deps.logger.warn(
      { due: count },
      'SMS contacts are due but Twilio is not configured (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN, and a messaging service or phone number); they wait',
    );
  }
}
