import type { Channel } from '@act/contracts/src/attribution';
import type { CampaignExperiment, CampaignResults, IncrementalOverview, IncrementalTotal } from '@act/contracts/src/experiments-api';
import type { AttributionLedger } from '../attribution/ledger';
import { campaignResults, winnerRecord, type Engagement } from './results';
import type { ExperimentSettings } from './settings';

/** A step's holdout share, variants and winner: what the flow's assignment step (@act/flow) draws from. */
export interface StepPlan {
  holdoutShare: number;
  variants: { id: string; share: number }[];
  winner: string | null;
}

/**
 * One channel's campaign experiments: the settings, the plan the flow's assignment step reads, and the results,
 * which also decide a step's winner when the campaign asks for it (the decision is kept once, with its numbers and
 * its time; the winner then takes every contact assigned after it).
 */
/** How long a campaign's results are reused: a page, its reloads and the Dashboard's line share one computation. */
export const RESULTS_FRESH_MS = 10_000;

export class ExperimentsService {
  private readonly recent = new Map<number, { at: number; basis: string; results: Promise<CampaignResults> }>();

  constructor(
    private readonly deps: {
      channel: Channel;
      settings: ExperimentSettings;
      ledger: AttributionLedger;
      windowDays: () => Promise<number>;
      /** Delivered and clicked per step variant, where the channel has them. */
      engagement?: (campaignId: number) => Promise<Engagement>;
      /**
       * What the results count with beyond the campaign's own settings (the channel's click source), read on every
       * call: results counted with another one are not reused, whichever instance the switch was changed on.
       */
      basis?: () => Promise<string>;
      now?: () => Date;
    },
  ) {}

  get settings(): ExperimentSettings {
    return this.deps.settings;
  }

  /** A step's holdout share, variants and winner, from a campaign's experiment (null: nothing to assign). */
  static planOf(experiment: CampaignExperiment | null | undefined, step: number): StepPlan | null {
    if (!experiment) return null;
    const s = experiment.steps.find((x) => x.template_id === step);
    const winner = experiment.winners.find((w) => w.template_id === step)?.variant ?? null;
    if (!s && experiment.holdout_percent <= 0) return null;
    return {
      holdoutShare: experiment.holdout_percent,
      variants: s ? s.variants.map((v) => ({ id: v.id, share: v.share })) : [],
      winner: s && winner && s.variants.some((v) => v.id === winner) ? winner : null,
    };
  }

  /**
   * Incremental revenue over every campaign that holds out contacts, per currency: the campaigns' figures added up,
   * their 95% half-widths in quadrature (independent campaigns, each interval near-normal). Below the minimum sample
   * in any campaign of a currency, that currency says how many more recipients the neediest group lacks.
   */
  async overview(): Promise<IncrementalOverview> {
    const byCurrency = new Map<string, CampaignResults[]>();
    for (const e of await this.deps.settings.withHoldout()) {
      const r = await this.results(e.campaign_id);
      const key = r.currency ?? '';
      byCurrency.set(key, [...(byCurrency.get(key) ?? []), r]);
    }
    const totals: IncrementalTotal[] = [...byCurrency].map(([key, rs]) => {
      const currency = key || null;
      const short = rs.filter((r) => r.incremental.status !== 'ok');
      if (short.length) {
        const needs = short.flatMap((r) => (r.incremental.status === 'ok' ? [] : [r.incremental.reminded_more_needed, r.incremental.holdout_more_needed]));
        const more = needs.some((n) => n === null) ? null : Math.max(0, ...(needs as number[]));
        return { currency, status: 'not_enough_data', campaigns: rs.length, more_recipients_needed: more };
      }
      let estimate = 0;
      let below = 0;
      let above = 0;
      for (const r of rs) {
        if (r.incremental.status !== 'ok') continue;
        const i = r.incremental.incremental_revenue;
        estimate += i.estimate;
        below += (i.estimate - i.lower) ** 2;
        above += (i.upper - i.estimate) ** 2;
      }
      return { currency, status: 'ok', campaigns: rs.length, incremental_revenue: { estimate, lower: estimate - Math.sqrt(below), upper: estimate + Math.sqrt(above) } };
    });
    return { channel: this.deps.channel, totals };
  }

  /**
   * A campaign's results, computed at most every RESULTS_FRESH_MS (a change of its settings or of the channel's click
   * source computes them again): a campaign of tens of thousands of contacts reads all its touches and the period's
   * purchases.
   */
  async results(campaignId: number): Promise<CampaignResults> {
    const basis = (await this.deps.basis?.()) ?? '';
    const now = Date.now();
    const hit = this.recent.get(campaignId);
    if (hit && hit.basis === basis && now - hit.at < RESULTS_FRESH_MS) return hit.results;
    const results = this.compute(campaignId);
    this.recent.set(campaignId, { at: now, basis, results });
    // A failure is not kept.
    results.catch(() => this.recent.delete(campaignId));
    if (this.recent.size > 1000) this.recent.delete(this.recent.keys().next().value!);
    return results;
  }

  /**
   * Looks at every campaign that picks a winner on its own and has an undecided step, every `everyMs` (first after
   * one period), so a winner is decided even while nobody opens its page; each instance may do it, a step's winner is
   * kept once. A failed look is logged and the next one comes.
   */
  startWinnerChecks({ everyMs, logger }: { everyMs: number; logger: { warn(obj: object, msg: string): void } }): { stop(): void } {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void (async () => {
        for (const e of await this.deps.settings.undecided()) await this.results(e.campaign_id);
      })()
        .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'automatic winner check failed'))
        .finally(() => (running = false));
    }, everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** Its settings changed: the next read computes its results again. */
  forget(campaignId: number): void {
    this.recent.delete(campaignId);
  }

  private async compute(campaignId: number): Promise<CampaignResults> {
    const experiment = await this.deps.settings.get(campaignId);
    const [windowDays, engagement] = await Promise.all([this.deps.windowDays(), this.deps.engagement?.(campaignId)]);
    const { results, decisions } = await campaignResults({ ledger: this.deps.ledger, channel: this.deps.channel, experiment, windowDays, engagement });
    if (!experiment.auto_winner) return results;
    const now = (this.deps.now ?? (() => new Date()))();
    for (const step of results.steps) {
      const d = decisions.get(step.template_id);
      if (step.winner || d?.status !== 'winner') continue;
      step.winner = await this.deps.settings.keepWinner(campaignId, winnerRecord(step.template_id, d, now));
    }
    return results;
  }
}
