import { eachReleasing } from './concurrency';

/** What the poller needs of a runner. */
export interface PolledRunner {
  due(limit: number): Promise<number[]>;
  processBurst(refs: number[], onReleased?: () => void): Promise<Map<number, string>>;
}

export interface DuePollerOptions {
  /** How long the poller waits after a look that found less than a full round. */
  everyMs: number;
  /** Most steps one burst takes. */
  burst: number;
  /** Bursts in flight at once: while one waits on the provider, the next one's reads and writes go ahead. */
  bursts: number;
  logger: { warn(obj: object, msg: string): void };
}

/**
 * The schedule: the rows' due times are the record, and every instance asks the database for what came due (an
 * indexed range on the due time, oldest first). A look that found a full round looks again as soon as its bursts
 * have had their first answers, so a backlog is worked off without waiting for the next period; the leases decide
 * which instance sends.
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
  }

  /** Look as soon as possible: now when idle, else right after the look under way releases (new steps are due now). */
  wake(): void {
    if (this.looking) this.again = true;
    else this.plan(0);
  }

  private again = false;

  private plan(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(), ms);
    this.timer.unref();
  }

  /**
   * One look: the due steps in bursts. The next look comes once every burst has released its place (its sends have
   * had their first answers; retries may go on): at once when this one was full, else after `everyMs`. Resolves when
   * every burst has ended.
   */
  async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    const { burst, bursts } = this.opts;
    let full = false;
    let done = false;
    const released = () => {
      if (done) return;
      done = true;
      this.looking = false;
      const soon = full || this.again;
      this.again = false;
      this.plan(soon ? 0 : this.opts.everyMs);
    };
    try {
      const refs = await this.runner.due(burst * bursts);
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
