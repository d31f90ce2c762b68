/**
 * Agenda on svc-sms's own database. ESM-only: imported by the service entry (tsx) only, never by jest tests.
 * Jobs are a convenience for precision; correctness never depends on them: every step is idempotent in the data
 * layer and the due scan / sweep pick up anything a job missed.
 */
import type { Agenda } from 'agenda';
import type { Connection } from 'mongoose';
import { createBatcher, insertNew, watchAgendaJobs, type Logger } from '@act/service-kit';
import { createAgenda, newJobDocument, startAgenda } from '@act/service-kit/agenda';
import type { SequenceScheduler } from '../contacts/service';
import type { SequenceEngine } from './engine';

const STEP_JOB = 'sms-contact-step';
const SWEEP_JOB = 'sms-sweep';
const COLLECTION = 'agenda_jobs';
const JOB_INDEX = 'sms_step_contact_at';

export interface AgendaSchedulerOptions {
  conn: Connection;
  logger: Logger;
  processEveryMs: number;
  sweepEveryMs: number;
}

/**
 * The schedule while the due poller is on: a contact's next_at is the record every instance's poller reads (an
 * indexed range on next_at), so a step needs no job of its own; a step this instance schedules tells its poller
 * when it falls due, so the poller looks then rather than at its next idle look.
 */
export class PolledScheduler implements SequenceScheduler {
  private poller: { wakeAt(at: Date): void } | null = null;

  /** The poller to tell (made after the services that schedule). */
  tell(poller: { wakeAt(at: Date): void }): void {
    this.poller = poller;
  }

  schedule(_contactRef: number, at: Date): Promise<void> {
    this.poller?.wakeAt(at);
    return Promise.resolve();
  }

  cancel(): Promise<void> {
    return Promise.resolve();
  }
}

export class AgendaScheduler implements SequenceScheduler {
  private readonly agenda: Agenda;
  private engine: SequenceEngine | null = null;
  private started = false;

  private readonly scheduleBatch: (item: { contactRef: number; at: Date }) => Promise<void>;

  constructor(private readonly opts: AgendaSchedulerOptions) {
    this.scheduleBatch = createBatcher(this.writeJobs);
    this.agenda = createAgenda({
      conn: opts.conn,
      collection: COLLECTION,
      service: 'svc-sms',
      processEveryMs: opts.processEveryMs,
      logger: opts.logger,
      removeOnComplete: true,
      defaultLockLifetime: 10 * 60_000,
    });
  }

  private unwatch: (() => void) | null = null;

  async start(engine: SequenceEngine): Promise<void> {
    this.engine = engine;
    this.unwatch = watchAgendaJobs(this.opts.conn.db!.collection(COLLECTION));
    // lockLimit: a poll does not lock thousands of jobs at once (each lock is a findOneAndUpdate of its own), e.g.
    // when the backstop takes over the steps of an instance that died.
    this.agenda.define<{ contactId: number }>(
      STEP_JOB,
      async (job) => {
        await engine.processContact(job.attrs.data.contactId);
      },
      { concurrency: 20, lockLimit: 100 },
    );
    this.agenda.define(SWEEP_JOB, async () => {
      await engine.sweep({ limit: 500 });
    });
    await startAgenda(this.agenda, { job: SWEEP_JOB, everyMs: this.opts.sweepEveryMs });
    this.started = true;
  }

  /** One job per (contact, time): scheduling the same moment twice is one job; a later step is another. */
  schedule(contactRef: number, at: Date): Promise<void> {
    return this.scheduleBatch({ contactRef, at });
  }

  private jobsIndex: Promise<void> | null = null;

  /**
   * Jobs are made by Agenda (its defaults, its format) and written in one insert per burst, where a unique index on
   * the keys of the `unique({ 'data.contactId', 'data.at' })` save they replace keeps each job once: Agenda's own
   * save is a findOneAndUpdate per job on `data.contactId` and `data.at`, which none of Agenda's own indexes serves
   * (they begin with the name and the run time), so every new contact of a webhook burst would read every step job.
   */
  private readonly writeJobs = async (items: { contactRef: number; at: Date }[]) => {
    const jobs = this.opts.conn.db!.collection(COLLECTION);
    this.jobsIndex ??= this.agenda.ready.then(async () => {
      await jobs.createIndex(
        { name: 1, 'data.contactId': 1, 'data.at': 1 },
        { unique: true, sparse: true, name: JOB_INDEX },
      );
    });
    await this.jobsIndex.catch((err) => {
      this.jobsIndex = null;
      throw err;
    });
    // A duplicate is the same job written by another writer (or earlier in this batch): it exists, which is the point.
    await insertNew(
      jobs,
      items.map(({ contactRef, at }) => newJobDocument(this.agenda, STEP_JOB, { contactId: contactRef, at: at.getTime() }, at)),
      JOB_INDEX,
    );
    return items.map(() => undefined);
  };

  async cancel(contactRefs: number[]): Promise<void> {
    await this.agenda.ready;
    for (const id of contactRefs) await this.agenda.cancel({ name: STEP_JOB, data: { contactId: id } });
  }

  async stop(): Promise<void> {
    this.unwatch?.();
    if (this.started) await this.agenda.stop(false);
  }
}
