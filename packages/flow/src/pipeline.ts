/**
 * A burst is a list of works, one per due step the burst holds the lease of. Each step of the pipeline looks at the
 * works still open and may decide some (an outcome): a decided work leaves the pipeline, and what it decided (its
 * log, what its row becomes) is written when the burst ends. One contact is a burst of one: there is no other path.
 */
export interface Work<Row> {
  readonly ref: number;
  readonly row: Row;
  /** Decided: later steps no longer see the work. */
  outcome?: string;
  /** When the flow's next step is due once this one is written (null: the flow ends); the runner schedules it. */
  nextAt?: Date | null;
}

export interface BurstContext<S = undefined> {
  /** When the burst read its rows. */
  now: Date;
  /**
   * The burst's lease, as the step store wrote it on each row it took (`lease_id`): every write of a step under the
   * lease names it (`underLease`), so it lands only while the row is still this burst's. A row's due time is no
   * such mark: a channel may lease some rows for less (email's reminders) or move it within the burst.
   */
  leaseId: string;
  /** The end of the burst's lease: no provider call of the burst may start after it. */
  leaseUntil: Date;
  /**
   * Says that every send of the burst has had its first answer (retries may still be under way): the caller may start
   * another burst meanwhile. Idempotent.
   */
  release(): void;
  /** What the gate read for the burst (the provider's settings). */
  settings: S;
}

/**
 * The part of a write's filter that makes it land only on a row the burst still holds: both channels' step stores
 * keep the lease id of the burst holding a row in its `lease_id`.
 */
export function underLease(ctx: Pick<BurstContext<unknown>, 'leaseId'>): { lease_id: string } {
  return { lease_id: ctx.leaseId };
}

/** One unit of the pipeline (rules, claim, pace, send...), written once for every channel that uses it. */
export interface FlowStep<W, S = undefined> {
  readonly name: string;
  run(open: W[], ctx: BurstContext<S>): Promise<void>;
}

export const isOpen = (w: Work<unknown>): boolean => w.outcome === undefined;

/** Runs the steps in order over the works still open after each. */
export async function runPipeline<W extends Work<unknown>, S>(
  works: W[],
  steps: readonly FlowStep<W, S>[],
  ctx: BurstContext<S>,
): Promise<void> {
  for (const step of steps) {
    const open = works.filter(isOpen);
    if (open.length === 0) return;
    await step.run(open, ctx);
  }
}

/** A step from a name and a function. */
export function step<W, S = undefined>(name: string, run: (open: W[], ctx: BurstContext<S>) => Promise<void>): FlowStep<W, S> {
  return { name, run };
}
