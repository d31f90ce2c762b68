import { eachReleasing } from './concurrency';
import type { DueRows } from './runner';

/** What the poller needs of a runner. */
export interface PolledRunner {
  due(limit: number): Promise<DueRows>;
  processBurst(refs: number[], onReleased?: () => void): Promise<Map<number, string>>;
}

export interface DuePollerOptions {
  /** The shortest wait after a look that found less than a full round. */
  everyMs: number;
  /**
   * The longest wait: with nothing due, the poller sleeps until the next row falls due, but looks at least this
   * often for rows it was not told of (written by another instance that then stopped, or by a change outside the
   * flow). Default: the larger of everyMs and 2 s.
   */
  idleMs?: number;
  /** Most steps one burst takes. */
  burst: number;
  /** Bursts in flight at once: while one waits on the provider, the next one's reads and writes go ahead. */
  bursts: number;
  logger: { warn(obj: object, msg: string): void };
}

/**
 * The schedule: the rows' due times are the record, and every instance asks the database for what came due (the
 * waiting rows on their due-time index, oldest first). A look that found a full round looks again as soon as its
 * bursts have had their first answers, so a backlog is worked off without waiting for the next period; the leases
 * decide which instance sends; one that found some looks again after everyMs. A look that found nothing waits until
 * the next row falls due (at least everyMs, at most idleMs); a row this instance writes tells it when that one falls
 * due (`wakeAt`), so it looks then, and one due at once wakes it (`wake`).
 */
export class DuePoller {
  private timer: NodeJS.Timeout | null = null;
  private looking = false;
  private stopped = true;

  constructor(
    private readonly runner: PolledRunner,
    private readonly opts: DuePollerOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.plan(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.plannedAt = Infinity;
  }

  /** Look as soon as possible: now when idle, else right after the look under way releases (new steps are due now). */
  wake(): void {
    if (this.looking) this.again = true;
    else this.plan(0);
  }

  private again = false;

  /**
   * A row this instance wrote falls due at `at`: the next look comes no later than then, or one period from now
   * when that is later (rows written together share a look, as when the poller looked every period), so a step
   * due in a moment does not wait for the idle cap. Rows written elsewhere are found by the idle looks.
   */
  wakeAt(at: Date): void {
    const t = Math.max(at.getTime(), Date.now() + this.opts.everyMs);
    if (this.looking) this.told = Math.min(this.told, t);
    else if (t < this.plannedAt) this.plan(t - Date.now());
  }

  /** While a look is under way: the earliest due time this instance was told of, for the wait after it. */
  private told = Infinity;
  /** When the planned look comes (epoch ms; Infinity when none is planned). */
  private plannedAt = Infinity;

  private plan(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.plannedAt = Date.now() + ms;
    this.timer = setTimeout(() => void this.look(), ms);
    this.timer.unref();
  }

  /** After a look that was not full: until the next row falls due, within [everyMs, idleMs]. */
  private waitMs(nextAt: Date | null): number {
    const { everyMs } = this.opts;
    const idleMs = Math.max(everyMs, this.opts.idleMs ?? 2_000);
    const until = nextAt ? nextAt.getTime() - Date.now() : idleMs;
    return Math.min(idleMs, Math.max(everyMs, until));
  }

  /**
   * One look: the due steps in bursts. The next look comes once every burst has released its place (its sends have
   * had their first answers; retries may go on): at once when this one was full, else as `waitMs` says or when a row it
   * was told of falls due, whichever is first. Resolves when
   * every burst has ended.
   */
  async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    this.plannedAt = Infinity;
    const { burst, bursts } = this.opts;
    let full = false;
    let nextAt: Date | null = null;
    let done = false;
    const released = () => {
      if (done) return;
      done = true;
      this.looking = false;
      const soon = full || this.again;
      this.again = false;
      const untilTold = Math.max(0, this.told - Date.now());
      this.told = Infinity;
      this.plan(soon ? 0 : Math.min(this.waitMs(nextAt), untilTold));
    };
    try {
      const found = await this.runner.due(burst * bursts);
      const refs = found.refs;
      // A look that handed out steps looks again soon: those steps wrote due times this one did not read.
      nextAt = refs.length > 0 ? new Date(0) : found.nextAt;
      full = refs.length >= burst * bursts;
      const chunks: number[][] = [];
      for (let i = 0; i < refs.length; i += burst) chunks.push(refs.slice(i, i + burst));
      await eachReleasing(chunks, bursts, async (chunk, release) => void (await this.runner.processBurst(chunk, release)), released);
    } catch (err) {
      this.opts.logger.warn({ err: (err as Error).message }, 'looking for due steps failed');
    } finally {
      released();
    }
  }
}
