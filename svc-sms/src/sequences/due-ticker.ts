import type { Connection } from 'mongoose';
import { createBatcher, DueHeap, type Logger } from '@act/service-kit';
import { contactModel } from '../contacts/model';
import { OPEN_STATUSES, type SequenceScheduler } from '../contacts/service';
import type { SequenceEngine, StepOutcome } from './engine';
import { once } from '@act/flow';

/** The persistent jobs behind the ticker (Agenda in production). */
export interface StepJobs extends SequenceScheduler {
  /** Drops the jobs of these (contact, time) steps: the ticker has handled them. */
  forget(steps: { contactRef: number; at: Date }[]): Promise<void>;
}

export interface DueTickerOptions {
  conn: Connection;
  logger: Logger;
  /** How often the heap is looked at (SMS_DUE_TICK_MS). */
  tickMs: number;
  /** Most due steps handled together in one burst (SMS_DUE_BURST); default 100. */
  burst?: number;
  /** Bursts in flight at once: while one waits on the provider, the next one's reads and writes go ahead. */
  bursts?: number;
  /**
   * The persistent job of a step runs this long after it (SMS_JOB_GRACE_MS): the ticker sends on time and drops the
   * job; the job acts only when the ticker did not (this instance gone before the step was due).
   */
  graceMs: number;
}

/** Outcomes after which the step's job has nothing left to do. */
const HANDLED: ReadonlySet<StepOutcome> = new Set<StepOutcome>([
  'not_due',
  'held_for_blackout',
  'paced',
  'sent',
  'failed',
  'skipped_duplicate',
  'blocked_toll_free',
  'stopped',
  'finished',
]);

/**
 * Runs each step at its time from memory: every step this instance schedules (a new contact of its webhook or of an
 * email-side event, a next step, a blackout end), and at start every open contact's next step, goes into a heap
 * popped every `tickMs`. Finding due contacts by query meant a range query, which the MongoDB stand-in answers by
 * scanning and sorting every contact (~0.5 s at 20,000 contacts, under the collection's lock): once a second per
 * instance, that alone kept the stand-in busy and every step's writes waiting. The periodic due scan stays as the
 * backstop for other instances' contacts (SMS_DUE_SCAN_MS), with Agenda's jobs and sweep. A step is safe to run from
 * any of them (compare-and-set and claims in the engine); a heap entry whose contact was purchased or stopped finds
 * it closed and does nothing.
 */
export class DueTicker implements SequenceScheduler {
  private readonly heap = new DueHeap();
  private timer: NodeJS.Timeout | null = null;
  private running = 0;
  private engine: SequenceEngine | null = null;

  constructor(
    private readonly jobs: StepJobs,
    private readonly opts: DueTickerOptions,
  ) {}

  /**
   * The step goes into the heap; its job, the backstop a grace later, is written in the background with others (the
   * contact's next_at is the record: a job lost with this process is made up for by the due scan and the sweep), so
   * neither a webhook nor a burst waits for it.
   */
  schedule(contactRef: number, at: Date): Promise<void> {
    this.heap.push(at.getTime(), contactRef);
    this.jobs
      .schedule(contactRef, this.jobTime(at.getTime()))
      .catch((err) => this.opts.logger.warn({ err: (err as Error).message, contactRef }, 'step job not written; the due scan and sweep cover it'));
    return Promise.resolve();
  }

  cancel(contactRefs: number[]): Promise<void> {
    return this.jobs.cancel(contactRefs);
  }

  /** Loads every open contact's next step (one query) and starts ticking. */
  async start(engine: SequenceEngine): Promise<void> {
    this.engine = engine;
    const cursor = contactModel(this.opts.conn).collection.find(
      { next_at: { $ne: null }, status: { $in: [...OPEN_STATUSES] } },
      { projection: { _id: 0, id: 1, next_at: 1 } },
    );
    for await (const c of cursor) this.heap.push(new Date(c.next_at).getTime(), c.id as number);
    this.timer = setInterval(() => this.tick(), this.opts.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private jobTime(dueAt: number): Date {
    return new Date(dueAt + this.opts.graceMs);
  }

  /** Drops handled steps' jobs, many per write. */
  private readonly forget = createBatcher(async (steps: { contactRef: number; at: Date }[]) => {
    await this.jobs.forget(steps);
    return steps.map(() => undefined);
  });

  /**
   * Takes what came due in bursts of up to `burst` steps (one set of reads and writes for all of them, the provider
   * calls side by side; see SequenceEngine.processBurst), up to `bursts` at once, and looks again as soon as one
   * has had every first answer from the provider (its retries go on in the background: waiting for their backoffs
   * left the sender idle), so a backlog is worked off without waiting for the next tick.
   */
  tick(): void {
    const engine = this.engine;
    if (!engine) return;
    while (this.running < (this.opts.bursts ?? 2)) {
      const entries = this.heap.popDueEntries(Date.now(), this.opts.burst ?? 100);
      if (entries.length === 0) return;
      this.running++;
      const release = once(() => {
        this.running--;
        if (this.timer) this.tick();
      });
      void this.runBurst(engine, entries, release)
        .catch((err) => this.opts.logger.error({ err: (err as Error).message }, 'SMS due burst failed'))
        .finally(release);
    }
  }

  private async runBurst(engine: SequenceEngine, entries: [number, number][], release: () => void): Promise<void> {
    const outcomes = await engine.processBurst(entries.map(([, ref]) => ref), release);
    const handled = entries
      .filter(([, ref]) => HANDLED.has(outcomes.get(ref) ?? 'busy'))
      .map(([dueAt, ref]) => ({ contactRef: ref, at: this.jobTime(dueAt) }));
    for (const step of handled)
      this.forget(step).catch((err) =>
        this.opts.logger.warn({ err: (err as Error).message }, 'dropping a handled step job failed'),
      );
  }
}
