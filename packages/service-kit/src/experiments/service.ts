import type { Channel } from '@act/contracts/src/attribution';
import type { CampaignExperiment, CampaignResults } from '@act/contracts/src/experiments-api';
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
export class ExperimentsService {
  constructor(
    private readonly deps: {
      channel: Channel;
      settings: ExperimentSettings;
      ledger: AttributionLedger;
      windowDays: () => Promise<number>;
      /** Delivered and clicked per step variant, where the channel has them. */
      engagement?: (campaignId: number) => Promise<Engagement>;
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

  async results(campaignId: number): Promise<CampaignResults> {
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
