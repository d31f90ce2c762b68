/**
 * Agenda on a service's own database, for svc-email and svc-sms. Agenda 6 is ESM-only: this file is the
 * `@act/service-kit/agenda` subpath, imported by the services' Agenda files (loaded by the service entry under tsx)
 * only, never through the main index, which jest loads.
 */
import { Agenda, type AgendaOptions } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Connection } from 'mongoose';
import type { Logger } from './logger';

export interface AgendaSetup extends Omit<AgendaOptions, 'backend' | 'name' | 'processEvery'> {
  conn: Connection;
  /** The jobs' collection in the service's database. */
  collection: string;
  /** The service's name: each instance's Agenda is `<service>-<pid>`. */
  service: string;
  /** How often Agenda polls, in ms (a string like '300 milliseconds' has been read as minutes). */
  processEveryMs: number;
  logger: Logger;
  /** The level Agenda's 'error' events are logged at. */
  errorLevel?: 'warn' | 'error';
}

/** An Agenda on `conn`'s database (which it does not own: stopping it leaves the connection open). */
export function createAgenda({
  conn,
  collection,
  service,
  processEveryMs,
  logger,
  errorLevel = 'warn',
  ...options
}: AgendaSetup): Agenda {
  const agenda = new Agenda({
    backend: new MongoBackend({ mongo: conn.db as never, collection }),
    name: `${service}-${process.pid}`,
    processEvery: processEveryMs,
    ...options,
  });
  agenda.on('error', (err) => logger[errorLevel]({ err: err.message }, 'agenda error'));
  return agenda;
}

/** Starts processing, with `job` (defined beforehand) repeating every `everyMs`. */
export async function startAgenda(agenda: Agenda, every: { job: string; everyMs: number }): Promise<void> {
  await agenda.start();
  await agenda.every(every.everyMs, every.job);
}

/** Fields Agenda's own save writes as null on a new job (MongoJobRepository.saveJob). */
const AGENDA_NULLS = {
  lockedAt: null,
  lastFinishedAt: null,
  failedAt: null,
  failCount: null,
  failReason: null,
  repeatTimezone: null,
  lastRunAt: null,
  repeatInterval: null,
  repeatAt: null,
  disabled: null,
  progress: null,
  debounceStartedAt: null,
  fork: null,
  startDate: null,
  endDate: null,
  skipDays: null,
  lastModifiedBy: null,
};

/**
 * A new job's document as Agenda's own save would write it (its defaults, its format), for services that write many
 * jobs in one insert instead of one save each.
 */
export function newJobDocument(agenda: Agenda, name: string, data: Record<string, unknown>, at: Date) {
  const { _id, unique, uniqueOpts, ...props } = agenda.create(name, data).schedule(at).toJson() as unknown as Record<string, unknown>;
  void [_id, unique, uniqueOpts];
  return { ...AGENDA_NULLS, ...props };
}
