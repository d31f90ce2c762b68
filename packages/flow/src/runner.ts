import { eachReleasing, once } from './concurrency';
import { runPipeline, type BurstContext, type FlowStep, type Work } from './pipeline';

/** Where a channel keeps its flows' positions: one row per recipient, its next step due at a time. */
export interface StepStore<Row> {
  /** The row's key (the contact's numeric id). */
  ref(row: Row): number;
  /**
   * Keys of the rows due at `now`, oldest first, at most `limit`: `{ next_at: { $lte: now } }` sorted by the due time
   * on its index.
   */
  due(now: Date, limit: number): Promise<number[]>;
  /** The rows of these keys that are due at `now` (a row read by its key may have been handled meanwhile). */
  readDue(refs: number[], now: Date): Promise<Row[]>;
  /**
   * Takes the lease of each row still as read (a conditional update per row: another instance that read the same rows
   * changes none of them), its due time moved to `until` and the lease's id written in its `lease_id`, which the
   * steps' writes under the lease filter on (underLease). Returns the lease's id and the rows taken.
   */
  take(rows: Row[], until: Date): Promise<{ leaseId: string; taken: Row[] }>;
}

/** A burst's decisions written by the channel: its log rows, then each row's new position, while the lease is ours. */
export interface FlowRecorder<Row, W extends Work<Row>> {
  finish(works: W[], lease: { leaseId: string; until: Date }): Promise<void>;
  /** After an error mid-burst: what becomes of the leases (default: they run out, and any instance takes them up). */
  abandon?(works: W[], lease: { leaseId: string; until: Date }): Promise<void>;
}

/**
 * What the gate says of a burst's due rows: an outcome for each (nothing can be sent now: no credentials, quiet
 * hours), no lease taken; or go on, with the settings the burst's steps read.
 */
export type GateAnswer<S> =
  | {
      decided: Map<number, string>;
      /**
       * Nothing can be sent for this long whatever the row (no credentials): the runner finds no due rows meanwhile,
       * so a poller does not read the same waiting rows again and again.
       */
      pauseMs?: number;
    }
  | { settings: S };

export interface FlowChannel<Row, W extends Work<Row>, S = undefined> {
  /** Channel name, for logs. */
  name: string;
  store: StepStore<Row>;
  /** Read once per burst before any lease is taken. */
  gate(rows: Row[], now: Date): Promise<GateAnswer<S>>;
  /** The work a taken row starts as. */
  work(row: Row): W;
  /** The pipeline, in order. */
  steps: readonly FlowStep<W, S>[];
  recorder: FlowRecorder<Row, W>;
  /** Makes sure the row is looked at no later than `at` (a persistent job); absent when the due poller is the schedule. */
  schedule?(ref: number, at: Date): Promise<void>;
}

export interface FlowRunnerOptions {
  /** How long a taken step holds its row: longer than any provider call, so a slow send is never taken over. */
  leaseMs: number;
  now?: () => Date;
  logger: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** Outcomes of keys the runner did not decide: not due (handled meanwhile), or held by another attempt. */
export const NOT_DUE = 'not_due';
export const BUSY = 'busy';

/**
 * The flow runner: due steps are read, gated, leased, run through the channel's pipeline and written back, and the
 * next step scheduled. A burst of many keys and one key (a persistent job's contact) go the same way.
 */
export class FlowRunner<Row, W extends Work<Row>, S = undefined> {
  private readonly inFlight = new Set<number>();
  private readonly now: () => Date;
  private pausedUntil = 0;

  constructor(
    private readonly channel: FlowChannel<Row, W, S>,
    private readonly opts: FlowRunnerOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /** Keys due now (none of them held by this instance; none while the gate said nothing can be sent). */
  async due(limit: number): Promise<number[]> {
    if (Date.now() < this.pausedUntil) return [];
    const refs = await this.channel.store.due(this.now(), limit);
    return refs.filter((r) => !this.inFlight.has(r));
  }

  /** One key's step, if due. */
  async process(ref: number): Promise<string> {
    return (await this.processBurst([ref])).get(ref) ?? BUSY;
  }

  /**
   * The due steps among these keys: the outcome per key. A key another burst of this instance holds is 'busy'; an
   * error leaves the undecided ones 'busy'. `onReleased` once every send has had its first answer, or at the end.
   */
  async processBurst(refs: number[], onReleased: () => void = () => undefined): Promise<Map<number, string>> {
    const release = once(onReleased);
    const out = new Map<number, string>();
    const mine: number[] = [];
    for (const ref of new Set(refs)) {
      if (this.inFlight.has(ref)) out.set(ref, BUSY);
      else {
        this.inFlight.add(ref);
        mine.push(ref);
      }
    }
    try {
      if (mine.length) await this.burst(mine, out, release);
    } catch (err) {
      this.opts.logger.error({ err: (err as Error).message, steps: mine.length }, `${this.channel.name} steps failed`);
    } finally {
      for (const ref of mine) {
        this.inFlight.delete(ref);
        if (!out.has(ref)) out.set(ref, BUSY);
      }
      release();
    }
    return out;
  }

  /**
   * Every step due now, in bursts of `burst`, `bursts` of them at once (the next starting as soon as one has had its
   * first answers). Resolves when all are done; `onReleased` when all have released. Returns how many were decided.
   */
  async sweep({
    limit,
    burst,
    bursts = 2,
    onReleased,
  }: {
    limit: number;
    burst: number;
    bursts?: number;
    onReleased?: () => void;
  }): Promise<number> {
    const refs = await this.due(limit);
    const chunks: number[][] = [];
    for (let i = 0; i < refs.length; i += burst) chunks.push(refs.slice(i, i + burst));
    let decided = 0;
    await eachReleasing(
      chunks,
      bursts,
      async (chunk, release) => {
        for (const o of (await this.processBurst(chunk, release)).values()) if (o !== BUSY && o !== NOT_DUE) decided++;
      },
      onReleased,
    );
    return decided;
  }

  private async burst(refs: number[], out: Map<number, string>, release: () => void): Promise<void> {
    const { store, recorder } = this.channel;
    const now = this.now();
    const due = await store.readDue(refs, now);
    const dueRefs = new Set(due.map((r) => store.ref(r)));
    for (const ref of refs) if (!dueRefs.has(ref)) out.set(ref, NOT_DUE);
    if (due.length === 0) return;

    const gated = await this.channel.gate(due, now);
    if ('decided' in gated) {
      if (gated.pauseMs) this.pausedUntil = Date.now() + gated.pauseMs;
      for (const ref of dueRefs) out.set(ref, gated.decided.get(ref) ?? BUSY);
      return;
    }

    const until = new Date(now.getTime() + this.opts.leaseMs);
    const { leaseId, taken } = await store.take(due, until);
    if (taken.length === 0) return;
    const lease = { leaseId, until };
    const works = taken.map((row) => this.channel.work(row));
    const ctx: BurstContext<S> = { now, leaseId, leaseUntil: until, release, settings: gated.settings };
    try {
      await runPipeline(works, this.channel.steps, ctx);
      await recorder.finish(works, lease);
    } catch (err) {
      await recorder.abandon?.(works, lease).catch(() => undefined);
      throw err;
    }
    // Outcomes only once every write is done: after an error the steps stay 'busy', and the leases bring them back.
    for (const w of works) if (w.outcome !== undefined) out.set(w.ref, w.outcome);
    const channel = this.channel;
    if (channel.schedule)
      await Promise.all(works.filter((w) => w.nextAt).map((w) => channel.schedule!(w.ref, w.nextAt!).catch(() => undefined)));
  }
}
