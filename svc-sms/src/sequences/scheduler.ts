/**
 * Agenda on svc-sms's own database. ESM-only: imported by the service entry (tsx) only, never by jest tests.
 * Jobs are a convenience for precision; correctness never depends on them: every step is idempotent in the data
 * layer and the due scan / sweep pick up anything a job missed.
 */
import { Agenda } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Connection } from 'mongoose';
import type { Logger } from '@act/service-kit';
import type { SequenceScheduler } from '../contacts/service';
import type { SequenceEngine } from './engine';

const STEP_JOB = 'sms-contact-step';
const SWEEP_JOB = 'sms-sweep';

export interface AgendaSchedulerOptions {
  conn: Connection;
  logger: Logger;
  processEveryMs: number;
  sweepEveryMs: number;
}

export class AgendaScheduler implements SequenceScheduler {
  private readonly agenda: Agenda;
  private engine: SequenceEngine | null = null;
  private started = false;

  constructor(private readonly opts: AgendaSchedulerOptions) {
    const backend = new MongoBackend({ mongo: opts.conn.db as never, collection: 'agenda_jobs' });
    // processEvery as a number of ms: a string like '300 milliseconds' has been read as minutes.
    this.agenda = new Agenda({
      backend,
      name: `svc-sms-${process.pid}`,
      processEvery: opts.processEveryMs,
      removeOnComplete: true,
      defaultLockLifetime: 10 * 60_000,
    });
    this.agenda.on('error', (err) => opts.logger.warn({ err: err.message }, 'agenda error'));
  }

  async start(engine: SequenceEngine): Promise<void> {
    this.engine = engine;
    this.agenda.define<{ contactId: number }>(STEP_JOB, async (job) => {
      await engine.processContact(job.attrs.data.contactId);
    });
    this.agenda.define(SWEEP_JOB, async () => {
      await engine.sweep(500);
    });
    await this.agenda.start();
    await this.agenda.every(this.opts.sweepEveryMs, SWEEP_JOB);
    this.started = true;
  }

  /** One job per (contact, time): scheduling the same moment twice is one job; a later step is another. */
  async schedule(contactRef: number, at: Date): Promise<void> {
    await this.agenda.ready;
    await this.agenda
      .create(STEP_JOB, { contactId: contactRef, at: at.getTime() })
      .unique({ 'data.contactId': contactRef, 'data.at': at.getTime() })
      .schedule(at)
      .save();
  }

  async cancel(contactRefs: number[]): Promise<void> {
    await this.agenda.ready;
    for (const id of contactRefs) await this.agenda.cancel({ name: STEP_JOB, data: { contactId: id } });
  }

  async stop(): Promise<void> {
    if (this.started) await this.agenda.stop(false);
  }
}
