// Agenda 6 is ESM-only: this file is loaded by the service entry (tsx) only, never by jest.
import type { Connection } from 'mongoose';
import { insertNew, watchAgendaJobs, type Logger } from '@act/service-kit';
import { createAgenda, newJobDocument, startAgenda } from '@act/service-kit/agenda';
import type { ReminderJobs, ReminderService } from './service';

export const SEND_REMINDER = 'send-reminder';
export const REMINDER_SWEEP = 'reminder-sweep';
const COLLECTION = 'agendaJobs';
const SCHEDULE_LINGER_MS = 250;
const JOB_INDEX = 'send_reminder_contact';

export interface AgendaJobs extends ReminderJobs {
  stop(): Promise<void>;
}

/**
 * Agenda on svc-email's own database: one `send-reminder` job per contact at remind_at + grace (unique by contact id)
 * and `reminder-sweep` every minute. Job creation runs off the webhook's answer path, a few at a time.
 */
export async function startAgendaJobs({
  conn,
  reminders,
  logger,
  processEveryMs,
  sweepIntervalMs,
  graceMs,
}: {
  conn: Connection;
  reminders: ReminderService;
  logger: Logger;
  processEveryMs: number;
  sweepIntervalMs: number;
  /**
   * The job runs this long after remind_at. The due ticker sends on time and removes the job; the job is the
   * persistent backstop (an instance gone before remind_at). Without the grace, Agenda would lock jobs up to
   * one poll ahead and race the ticker for every contact: harmless (the claim is conditional) but twice the work.
   */
  graceMs: number;
}): Promise<AgendaJobs> {
  const db = conn.db!;
  const jobs = db.collection(COLLECTION);
  const unwatch = watchAgendaJobs(jobs);
  // Unique by contact (so a job is created once), and exactly the keys of the lookups below (the stand-in
  // only uses an index whose keys equal the query's). Sparse: the sweep's job has no contactId.
  await jobs.createIndex({ name: 1, 'data.contactId': 1 }, { unique: true, sparse: true, name: JOB_INDEX });

  const agenda = createAgenda({
    conn,
    collection: COLLECTION,
    service: 'svc-email',
    processEveryMs,
    logger,
    errorLevel: 'error',
    defaultLockLifetime: 60_000,
    maxConcurrency: 40,
  });
  agenda.on('fail', (err, job) => logger.warn({ err: err instanceof Error ? err.message : err, job: job.attrs.name }, 'agenda job failed'));

  agenda.define<{ contactId: number }>(
    SEND_REMINDER,
    async (job) => {
      const id = job.attrs.data?.contactId;
      if (typeof id === 'number') await reminders.sendDue([id]);
    },
    // lockLimit: a poll does not grab thousands of jobs at once (each lock is a query of its own).
    { concurrency: 20, lockLimit: 100, removeOnComplete: true },
  );
  agenda.define(
    REMINDER_SWEEP,
    async () => {
      const n = await reminders.sweep();
      if (n > 0) logger.info({ sent: n }, 'reminder sweep sent missed reminders');
    },
    { concurrency: 1 },
  );
  await startAgenda(agenda, { job: REMINDER_SWEEP, everyMs: sweepIntervalMs });

  // Job documents are made by Agenda (its defaults, its format) and written in one insert per batch, where the
  // unique index does what Agenda's own `unique({ 'data.contactId' })` + insertOnly save does (a job already
  // there stays): at thousands of webhooks per second, one round trip per contact would cost as much as the
  // webhook itself.
  const queue: { id: number; remind_at: Date }[] = [];
  let draining = false;
  let lingering = false;
  let stopped = false;
  function jobDocument(it: { id: number; remind_at: Date }) {
    return newJobDocument(agenda, SEND_REMINDER, { contactId: it.id }, new Date(it.remind_at.getTime() + graceMs));
  }
  async function drain() {
    if (draining) return;
    draining = true;
    try {
      while (queue.length && !stopped) {
        const batch = queue.splice(0, 500);
        try {
          await insertNew(jobs, batch.map(jobDocument), JOB_INDEX);
        } catch (err) {
          logger.warn({ err: (err as Error).message, contacts: batch.length }, 'scheduling reminder jobs failed; the due ticker and the sweep cover them');
        }
      }
    } finally {
      draining = false;
    }
  }

  return {
    schedule(items) {
      queue.push(...items);
      // Coalesce a burst of webhooks into one write: the jobs run remind_at + grace, so a quarter second more before
      // they are written costs nothing, and at hundreds of webhooks a second one write per turn was one per few
      // contacts. A process gone meanwhile leaves its contacts to the due ticker's start-up load and the sweep.
      if (!draining && !lingering) {
        lingering = true;
        setTimeout(() => {
          lingering = false;
          void drain();
        }, SCHEDULE_LINGER_MS);
      }
    },
    async cancel(ids) {
      if (ids.length === 0) return;
      const set = new Set(ids);
      for (let i = queue.length - 1; i >= 0; i--) if (set.has(queue[i]!.id)) queue.splice(i, 1);
      // Deletes by exactly the unique index's keys: an index hit each, also on the stand-in ($in would scan).
      await jobs.bulkWrite(ids.map((id) => ({ deleteOne: { filter: { name: SEND_REMINDER, 'data.contactId': id } } })), { ordered: false });
    },
    async cancelAll() {
      queue.length = 0;
      await agenda.cancel({ name: SEND_REMINDER });
    },
    async stop() {
      stopped = true;
      unwatch();
      await agenda.stop();
    },
  };
}
