import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { DuePoller, FlowRunner, type FlowStep } from '@act/flow';
import { dropStandInIndexes, envInt, reminderLateness, watchFlowSteps, type Incentives, type Logger } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService } from '../email-logs/service';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { UnsubscribeService } from '../unsubscribe/service';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import type { IntegrationCache } from '../integrations/cache';
import { BATCH_MAX, type ResendProvider } from '../providers/resend';
import { REMINDED, reminderStep } from '../reminders/step';
import type { RecoveryUrls } from './recovery-urls';
import { campaignChooser } from './campaign-choice';
import { sendClaimModel, sequenceStepModel, STANDIN_STEP_INDEXES, type SendClaimDoc, type SequenceStepDoc } from './model';
import { StepStore, type FlowStart } from './step-store';
import { EmailSteps, type EmailSettings, type EmailWork } from './steps';
import type { EmailTrackedLinks } from '../links';

export { failedMessage, sentMessage, skippedNoLinkMessage, type StepOutcome } from './steps';
export { unsubscribedMessage } from '../reminders/sender';
export type { FlowStart } from './step-store';

/** A step being worked holds its contact this long: longer than any provider call (RESEND_TIMEOUT_MS). */
const LEASE_MS = 5 * 60_000;
/**
 * A reminder's step holds its contact this long: it calls no provider (a few reads and writes), so a process killed
 * mid-claim leaves its reminders for this long only.
 */
const REMINDER_LEASE_MS = 15_000;
/** A step that threw (database trouble) is tried again after this. */
const ERROR_RETRY_MS = 10_000;
/** Steps one instance works at once when EMAIL_SEND_CONCURRENCY is not given: three bursts of a full batch. */
const DEFAULT_CONCURRENCY = 300;
/** Rows read per round of the sweep and of the start-up adoption. */
const ROUND = 500;
/**
 * How often each instance adopts pending, due contacts without a flow row. It sends nothing (the runner does): it
 * only writes missing rows, for contacts stored before contacts had rows or written straight into the database.
 */
const ADOPT_EVERY_MS = 60_000;

export interface SequenceEngineDeps {
  conn: Connection;
  campaigns: CampaignsService;
  templates: TemplatesService;
  unsubscribes: UnsubscribeService;
  provider: ResendProvider;
  recoveryUrls: RecoveryUrls;
  logs: EmailLogsService;
  links: UnsubscribeLinkSettings;
  /** Each step's code for the shopper (none, fixed, pool, created in the shop). */
  incentives: Incentives;
  integrations: IntegrationCache;
  /** Our redirect links (links/): the emails carry them when the operator counts clicks with them. */
  trackedLinks?: EmailTrackedLinks;
  /** Contacts whose reminder was withheld for the unsubscribe list (they then show `unsubscribed`). */
  markUnsubscribed(ids: number[]): Promise<void>;
  /** EMAIL_LIVE_SENDING: campaigns go on after the reminder; off, the reminder is the `would_send` log and the flow ends. */
  liveSending: boolean;
  /** Length of one hour of delay_hours (EMAIL_DELAY_HOUR_MS). */
  hourMs: number;
  /** Quiet hours and the frequency cap (timing.ts), ahead of the reminder and every campaign step; absent: none. */
  timing?: FlowStep<EmailWork, EmailSettings>;
  /**
   * Steps worked at once (EMAIL_SEND_CONCURRENCY), in bursts of up to 100 (a batch call's size); default
   * DEFAULT_CONCURRENCY.
   */
  concurrency?: number;
  /** How long the due poller waits after a look that found less than a full round (REMINDER_DUE_SCAN_MS). */
  scanMs: number;
  logger: Logger;
  /** The flows' clock: when a step is due, and the shopper's local hour; default flowClock(). */
  now?: () => Date;
}

/**
 * The machine's clock, or (EMAIL_CLOCK_OFFSET_MS, a test switch) that far ahead or behind, so a test can run a flow
 * at a chosen hour of a shopper's day and past the end of a hold.
 */
export function flowClock(): () => Date {
  const offset = envInt('EMAIL_CLOCK_OFFSET_MS', 0);
  return offset ? () => new Date(Date.now() + offset) : () => new Date();
}

/**
 * Email's one scheduler: the flow runner (@act/flow) over one row per contact, written at intake. The first step is
 * the reminder, due at remind_at (reminders/step.ts: the pending → sent claim, then the `would_send`, held or
 * unsubscribed log, or the campaign); with live sending on and a campaign that can send, the campaign's active
 * templates follow in template_order, the first delay_hours (0 by default) after the reminder, each next one
 * delay_hours after the previous send. The steps (steps.ts) check, right before each send, that the contact still
 * exists and has not purchased, the campaign is active, the address is not unsubscribed. Safe with any number of
 * instances: a step is taken by a compare-and-set on the row, and the (contact, template) claim is inserted before
 * Resend is called, which also gets an Idempotency-Key; an email goes out at most once, a reminder is logged once
 * (its log is keyed by contact). Due steps are worked in bursts of up to a batch call's 100, found by the due poller.
 */
export class SequenceEngine {
  private readonly steps: Collection<SequenceStepDoc>;
  private readonly contacts: Collection<ContactDoc>;
  private readonly store: StepStore;
  private readonly runner: FlowRunner<SequenceStepDoc, EmailWork, EmailSettings>;
  private readonly poller: DuePoller;
  private unwatch: () => void = () => undefined;
  private adoptTimer: NodeJS.Timeout | null = null;
  /** While "Process Missed Emails" runs: the contacts whose reminder was handled (it counts its own among them). */
  private counting: number[] | null = null;

  constructor(private readonly deps: SequenceEngineDeps) {
    this.steps = sequenceStepModel(deps.conn).collection as unknown as Collection<SequenceStepDoc>;
    this.contacts = contactModel(deps.conn).collection as unknown as Collection<ContactDoc>;
    const now = deps.now ?? flowClock();
    // Live sending off is the kill switch: the campaign steps already under way wait where they are.
    this.store = new StepStore(this.steps, deps.liveSending, REMINDER_LEASE_MS, now);
    const remind = reminderStep({
      contacts: this.contacts,
      rows: this.steps,
      unsubscribedAmong: (emails) => deps.unsubscribes.unsubscribedAmong(emails),
      markUnsubscribed: deps.markUnsubscribed,
      onReminded: (refs) => this.counting?.push(...refs),
      campaignFor: deps.liveSending ? campaignChooser(deps) : undefined,
    });
    const pipeline = new EmailSteps({
      contacts: this.contacts,
      claims: sendClaimModel(deps.conn).collection as unknown as Collection<SendClaimDoc>,
      campaigns: deps.campaigns,
      templates: deps.templates,
      unsubscribes: deps.unsubscribes,
      provider: deps.provider,
      recoveryUrls: deps.recoveryUrls,
      links: deps.links,
      incentives: deps.incentives,
      trackedLinks: deps.trackedLinks,
      experimentRows: this.steps,
      hourMs: deps.hourMs,
      logger: deps.logger,
    });
    this.runner = new FlowRunner<SequenceStepDoc, EmailWork, EmailSettings>(
      {
        name: 'sequence',
        store: this.store,
        gate: async () => {
          // Only the campaign's steps send through Resend (a reminder may go on to them in its burst): with live
          // sending off no burst reads the provider's settings.
          if (!deps.liveSending) return { settings: { from: null } };
          const status = await deps.provider.status();
          return { settings: { from: status.configured && status.from ? status.from : null } };
        },
        work: (row): EmailWork => ({ ref: row.contact_ref, row }),
        steps: [...(deps.timing ? [deps.timing] : []), remind, ...pipeline.all],
        recorder: {
          finish: async (works, lease) => {
            await deps.logs.addMany(works.flatMap((w) => [w.flowLog, w.log].filter((l) => l !== undefined)));
            await this.store.release(
              lease.leaseId,
              works.filter((w) => w.release).map((w) => ({ ref: w.ref, ...w.release! })),
            );
            const handedAt = Date.now();
            for (const w of works)
              // A timing rule's hold is no hand-off: the reminder is observed when it goes out.
              if (w.remindedDueAt || (w.row.stage === 'remind' && !w.held && (w.outcome === REMINDED || w.outcome === 'held')))
                reminderLateness.observe({ channel: 'email' }, Math.max(0, handedAt - (w.remindedDueAt ?? w.row.base_at).getTime()) / 1000);
          },
          // The burst's claims keep any email sent from going out again; the rows come back shortly.
          abandon: (works, lease) =>
            this.store.release(
              lease.leaseId,
              works.map((w) => ({ ref: w.ref, set: { due_at: new Date(now().getTime() + ERROR_RETRY_MS) } })),
            ),
        },
        // The next template: looked for straight away when due at once (a delay of 0), like the one just sent, else
        // this instance's poller looks when it falls due.
        schedule: async (_ref, at) => {
          if (at.getTime() <= now().getTime()) this.poller.wake();
          else this.poller.wakeAt(at);
        },
      },
      { leaseMs: LEASE_MS, now, logger: deps.logger },
    );
    const concurrency = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
    const burst = Math.min(BATCH_MAX, concurrency);
    this.poller = new DuePoller(this.runner, {
      everyMs: deps.scanMs,
      burst,
      bursts: Math.max(1, Math.round(concurrency / burst)),
      logger: deps.logger,
    });
  }

  static async init(conn: Connection): Promise<void> {
    await Promise.all([sequenceStepModel(conn).init(), sendClaimModel(conn).init()]);
    await dropStandInIndexes(sequenceStepModel(conn).collection as never, STANDIN_STEP_INDEXES);
  }

  /** The flows of contacts intake is about to store, their reminder due at remind_at. */
  async startFlows(items: FlowStart[]): Promise<void> {
    await this.store.start(items);
    // This instance's poller looks when the first of them falls due, not at its next idle look.
    if (items.length > 0) this.poller.wakeAt(new Date(items.reduce((first, i) => Math.min(first, i.remind_at.getTime()), Infinity)));
  }

  /** The flows of deleted contacts. */
  remove(refs: number[]): Promise<void> {
    return this.store.remove(refs);
  }

  removeAll(): Promise<void> {
    return this.store.removeAll();
  }

  /** One burst of these contacts' due steps (tests and tools): the outcome per contact. */
  processBurst(refs: number[]): Promise<Map<number, string>> {
    return this.runner.processBurst(refs);
  }

  /**
   * "Process Missed Emails": every reminder due now, in rounds (after adopting any pending contact without a flow);
   * returns how many reminders this call handled.
   */
  async sweep(): Promise<number> {
    await this.adoptPending();
    let total = 0;
    for (;;) {
      const due = await this.store.dueReminders(new Date(), ROUND);
      if (due.length === 0) break;
      this.counting = [];
      try {
        await this.runner.processBurst(due);
        const handled = new Set(this.counting);
        total += due.filter((ref) => handled.has(ref)).length;
      } finally {
        this.counting = null;
      }
      if (due.length < ROUND) break;
    }
    return total;
  }

  /**
   * Pending contacts whose reminder is due and which have no flow row get one (due at once). Intake writes the row
   * before the contact, so only a contact written straight into the database (the benchmarks' seeding) or stored
   * before contacts had flows is without one. Served by the contacts' (status, remind_at) index; a row already there
   * is left as it is. Returns how many rows it wrote.
   */
  async adoptPending(): Promise<number> {
    let adopted = 0;
    let after: Date | null = null;
    for (;;) {
      const range: { $lte: Date; $gte?: Date } = { $lte: new Date() };
      if (after) range.$gte = after;
      const pending = await this.contacts
        .find({ status: 'pending', remind_at: range }, { projection: { _id: 0, id: 1, contact_id: 1, integration_id: 1, remind_at: 1 } })
        .sort({ remind_at: 1 })
        .limit(ROUND)
        .toArray();
      // Most have their row (due, about to be taken): only the others are written.
      const have = await this.store.existing(pending.map((c) => c.id));
      const missing = pending.filter((c) => !have.has(c.id));
      adopted += await this.store.start(missing.map((c) => ({ id: c.id, contact_id: c.contact_id, integration_id: c.integration_id, remind_at: c.remind_at })));
      if (pending.length < ROUND) break;
      const last = pending[pending.length - 1]!.remind_at;
      // A round of contacts all due at one instant: the next round could not move past it.
      if (after && last.getTime() === after.getTime()) break;
      after = last;
    }
    return adopted;
  }

  /** Adopts pending contacts without a flow, then starts the due poller. */
  async start(): Promise<void> {
    const adopt = () =>
      this.adoptPending().then(
        (n) => void (n > 0 && this.poller.wake()),
        (err) => this.deps.logger.error({ err: (err as Error).message }, 'adopting pending contacts failed; tried again in a minute'),
      );
    await adopt();
    this.adoptTimer = setInterval(() => void adopt(), ADOPT_EVERY_MS);
    this.adoptTimer.unref();
    this.unwatch = watchFlowSteps(this.steps);
    this.poller.start();
  }

  stop(): void {
    if (this.adoptTimer) clearInterval(this.adoptTimer);
    this.adoptTimer = null;
    this.unwatch();
    this.poller.stop();
  }
}
