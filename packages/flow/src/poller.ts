import { eachReleasing } from './concurrency';

/** What the poller needs of a runner. */
export interface PolledRunner {
  due(limit: number): Promise<number[]>;
  processBurst(refs: number[], onReleased?: () => void): Promise<Map<number, string>>;
}

export interface DuePollerOptions {
  /** The shortest wait after a look that found less than a full round. */
  everyMs: number;
  /**
   * The wait after a look that found nothing, for rows this instance was not told of (written by another instance,
   * or by a change outside the flow). Default: the larger of everyMs and 2 s.
   */
  idleMs?: number;
  /** Most steps one burst takes. */
  burst: number;
  /** Bursts in flight at once: while one waits on the provider, the next one's reads and writes go ahead. */
  bursts: number;
  logger: { warn(obj: object, msg: string): void };
}

/** Told due times kept per poller (see `told`). */
const MAX_TOLD = 4_096;

/**
 * The schedule: the rows' due times are the record, and every instance asks the database for what came due (an
 * indexed range on the due time, oldest first). A look that found a full round looks again as soon as its bursts
 * have had their first answers, so a backlog is worked off without waiting for the next period; the leases decide
 * which instance sends; one that found some looks again after everyMs. A look that found none waits idleMs, unless
 * a row this instance wrote falls due sooner (`wakeAt`; `wake` for one due at once): an instance is told the due
 * time of every row it writes, and the idle looks find the rest.
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
   * A row this instance wrote falls due at `at`: the next look comes at the end of the period `at` falls in, or one
   * period from now when that is later, so rows due within one period share a look (as when the poller looked every
   * period: a look at the exact due time of the first of rows due a few milliseconds apart would take it alone, and
   * the next look waits for that burst's answers), and a step due in a moment does not wait for the idle look. Rows
   * written elsewhere are found by the idle looks.
   */
  wakeAt(at: Date): void {
    const every = Math.max(1, this.opts.everyMs);
    const t = Math.max(Math.ceil(at.getTime() / every) * every, Date.now() + every);
    this.remember(t);
    if (!this.looking && t < this.plannedAt) this.plan(t - Date.now());
  }

  /**
   * The ends of the periods rows this instance wrote fall due in, not yet looked at (ascending, one per period, at
   * most MAX_TOLD: about 17 minutes ahead at a 250 ms period). Times, not rows: a row past the last one kept, or
   * forgotten with a restart, is found by the idle looks.
   */
  private told: number[] = [];
  /** When the planned look comes (epoch ms; Infinity when none is planned). */
  private plannedAt = Infinity;

  private remember(t: number): void {
    const told = this.told;
    let lo = 0;
    let hi = told.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (told[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    if (told[lo] === t || (told.length >= MAX_TOLD && lo >= told.length)) return;
    told.splice(lo, 0, t);
    if (told.length > MAX_TOLD) told.pop();
  }

  private plan(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.plannedAt = Date.now() + ms;
    this.timer = setTimeout(() => void this.look(), ms);
    this.timer.unref();
  }

  /** After a look that was not full: the period when it found some, the idle wait when it found none. */
  private waitMs(found: number): number {
    const { everyMs } = this.opts;
    return found > 0 ? everyMs : Math.max(everyMs, this.opts.idleMs ?? 2_000);
  }

  /**
   * One look: the due steps in bursts. The next look comes once every burst has released its place (its sends have
   * had their first answers; retries may go on): at once when this one was full, else as `waitMs` says or when a row
   * it was told of falls due, whichever is first. Resolves when every burst has ended.
   */
  async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    this.plannedAt = Infinity;
    // The told times up to now are this look's: it reads every row due by now.
    const startedAt = Date.now();
    while (this.told.length > 0 && this.told[0]! <= startedAt) this.told.shift();
    const { burst, bursts } = this.opts;
    let full = false;
    let found = 0;
    let done = false;
    const released = () => {
      if (done) return;
      done = true;
      this.looking = false;
      const soon = full || this.again;
      this.again = false;
      const next = this.told[0];
      const untilTold = next === undefined ? Infinity : Math.max(0, next - Date.now());
      this.plan(soon ? 0 : Math.min(this.waitMs(found), untilTold));
    };
    try {
      const refs = await this.runner.due(burst * bursts);
      found = refs.length;
      full = found >= burst * bursts;
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
