import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { DuePoller, FlowRunner } from '@act/flow';
import type { Logger } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService } from '../email-logs/service';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { UnsubscribeService } from '../unsubscribe/service';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import { BATCH_MAX, type ResendProvider } from '../providers/resend';
import type { RecoveryUrls } from './recovery-urls';
import { sendClaimModel, sequenceStepModel, type SendClaimDoc, type SequenceStepDoc } from './model';
import { StepStore } from './step-store';
import { EmailSteps, type EmailSettings, type EmailWork } from './steps';

export { failedMessage, sentMessage, skippedNoLinkMessage, unsubscribedMessage, type StepOutcome } from './steps';

/** A step being worked holds its contact this long: longer than any provider call (RESEND_TIMEOUT_MS). */
const LEASE_MS = 5 * 60_000;
/** A step that threw (database trouble) is tried again after this. */
const ERROR_RETRY_MS = 10_000;
/** Steps one instance works at once when EMAIL_SEND_CONCURRENCY is not given: three bursts of a full batch. */
const DEFAULT_CONCURRENCY = 300;

export interface SequenceEngineDeps {
  conn: Connection;
  campaigns: CampaignsService;
  templates: TemplatesService;
  unsubscribes: UnsubscribeService;
  provider: ResendProvider;
  recoveryUrls: RecoveryUrls;
  logs: EmailLogsService;
  links: UnsubscribeLinkSettings;
  /** Length of one hour of delay_hours (EMAIL_DELAY_HOUR_MS). */
  hourMs: number;
  /**
   * Steps worked at once (EMAIL_SEND_CONCURRENCY), in bursts of up to 100 (a batch call's size); default
   * DEFAULT_CONCURRENCY.
   */
  concurrency?: number;
  /** How long the due poller waits after a look that found less than a full round (EMAIL_SEQUENCE_SCAN_MS). */
  scanMs: number;
  logger: Logger;
}

export interface SequenceStart {
  id: number;
  contact_id: string;
  integration_id: number | null;
  campaign_id: number;
}

/**
 * The email channel of the flow runner (@act/flow): a due contact gets its campaign's active templates in
 * template_order, the first at remind_at (plus its own delay_hours, 0 by default), each next one delay_hours after
 * the previous send. The sequence rows are the step store; the steps (steps.ts) check, right before each send, that
 * the contact still exists and has not purchased, the campaign is active, the address is not unsubscribed. Safe
 * with any number of instances: a step is taken by a compare-and-set on the sequence row, and the (contact, template)
 * claim is inserted before Resend is called, which also gets an Idempotency-Key; an email goes out at most once.
 * Due steps are worked in bursts of up to a batch call's 100, found by the due poller.
 */
export class SequenceEngine {
  private readonly steps: Collection<SequenceStepDoc>;
  private readonly store: StepStore;
  private readonly runner: FlowRunner<SequenceStepDoc, EmailWork, EmailSettings>;
  private readonly poller: DuePoller;

  constructor(private readonly deps: SequenceEngineDeps) {
    this.steps = sequenceStepModel(deps.conn).collection as unknown as Collection<SequenceStepDoc>;
    this.store = new StepStore(this.steps);
    const pipeline = new EmailSteps({
      contacts: contactModel(deps.conn).collection as unknown as Collection<ContactDoc>,
      claims: sendClaimModel(deps.conn).collection as unknown as Collection<SendClaimDoc>,
      campaigns: deps.campaigns,
      templates: deps.templates,
      unsubscribes: deps.unsubscribes,
      provider: deps.provider,
      recoveryUrls: deps.recoveryUrls,
      links: deps.links,
      hourMs: deps.hourMs,
      logger: deps.logger,
    });
    this.runner = new FlowRunner<SequenceStepDoc, EmailWork, EmailSettings>(
      {
        name: 'sequence',
        store: this.store,
        gate: async () => {
          const status = await deps.provider.status();
          return { settings: { from: status.configured && status.from ? status.from : null } };
        },
        work: (row): EmailWork => ({ ref: row.contact_ref, row }),
        steps: pipeline.all,
        recorder: {
          finish: async (works, lease) => {
            await deps.logs.addMany(works.filter((w) => w.log).map((w) => w.log!));
            await this.store.release(
              lease.leaseId,
              works.filter((w) => w.release).map((w) => ({ ref: w.ref, ...w.release! })),
            );
          },
          // The burst's claims keep any email sent from going out again; the rows come back shortly.
          abandon: (works, lease) =>
            this.store.release(
              lease.leaseId,
              works.map((w) => ({ ref: w.ref, set: { due_at: new Date(Date.now() + ERROR_RETRY_MS) } })),
            ),
        },
        // The next template is due at once (delay 0): looked for straight away, like the one just sent.
        schedule: async (_ref, at) => {
          if (at.getTime() <= Date.now()) this.poller.wake();
        },
      },
      { leaseMs: LEASE_MS, logger: deps.logger },
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
  }

  /** Starts sequences for contacts just claimed (pending → sent) by this instance; the first steps are due at once. */
  async begin(items: SequenceStart[], at = new Date()): Promise<void> {
    if (items.length === 0) return;
    await this.steps.bulkWrite(
      items.map((c) => ({
        updateOne: {
          filter: { contact_ref: c.id },
          update: {
            $setOnInsert: {
              contact_ref: c.id,
              contact_id: c.contact_id,
              integration_id: c.integration_id,
              campaign_id: c.campaign_id,
              last_order: 0,
              last_template_id: 0,
              base_at: at,
              due_at: at,
              lease_id: null,
              state: 'waiting' as const,
              sent: 0,
              stop_reason: null,
              created_at: at,
              updated_at: at,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    // Off the reminder path: the claim answered already, sends take as long as Resend takes.
    this.poller.wake();
  }

  /** One burst of these contacts' due steps (tests and tools): the outcome per contact. */
  processBurst(refs: number[]): Promise<Map<number, string>> {
    return this.runner.processBurst(refs);
  }

  start(): void {
    this.poller.start();
  }

  stop(): void {
    this.poller.stop();
  }
}
