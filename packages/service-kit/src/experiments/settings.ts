import type { Collection } from 'mongodb';
import {
  campaignExperimentSchema,
  DEFAULT_WINNER_MIN_RECIPIENTS,
  type CampaignExperiment,
  type CampaignExperimentRequest,
  type ExperimentWinner,
  variantIncentive,
} from '@act/contracts/src/experiments-api';
import { BadRequestError, NotFoundError } from '../errors';
import { validate } from '../validate';

/** What a campaign document keeps of its experiment (absent: none). */
export type StoredCampaignExperiment = Omit<CampaignExperiment, 'campaign_id'>;

interface CampaignWithExperiment {
  id: number;
  experiment?: StoredCampaignExperiment | null;
}

export function experimentOf(campaignId: number, stored: StoredCampaignExperiment | null | undefined): CampaignExperiment {
  return {
    campaign_id: campaignId,
    holdout_percent: stored?.holdout_percent ?? 0,
    auto_winner: stored?.auto_winner ?? false,
    winner_min_recipients: stored?.winner_min_recipients ?? DEFAULT_WINNER_MIN_RECIPIENTS,
    steps: (stored?.steps ?? []).map((s) => ({ ...s, variants: s.variants.map((v) => ({ ...v, incentive: variantIncentive(v.incentive) })) })),
    winners: stored?.winners ?? [],
  };
}

/**
 * A channel's campaign experiments, kept on the campaign documents (`experiment`): the holdout share, the variants
 * of each step, the automatic-winner setting and the winners decided. `stepsOf` names the campaign's steps (its
 * templates' ids): a variant of a step the campaign does not have is refused.
 */
export class ExperimentSettings {
  constructor(
    private readonly campaigns: Collection<CampaignWithExperiment>,
    private readonly stepsOf: (campaignId: number) => Promise<number[]>,
  ) {}

  async get(campaignId: number): Promise<CampaignExperiment> {
    const doc = await this.campaigns.findOne({ id: campaignId }, { projection: { _id: 0, id: 1, experiment: 1 } });
    if (!doc) throw new NotFoundError('Campaign not found');
    return experimentOf(campaignId, doc.experiment);
  }

  /** The campaigns holding out some of their contacts (a small collection: one document per campaign). */
  async withHoldout(): Promise<CampaignExperiment[]> {
    const docs = await this.campaigns.find({ 'experiment.holdout_percent': { $gt: 0 } }, { projection: { _id: 0, id: 1, experiment: 1 } }).toArray();
    return docs.map((d) => experimentOf(d.id, d.experiment));
  }

  /** The campaigns that pick a winner on their own and have a step with variants but no winner yet. */
  async undecided(): Promise<CampaignExperiment[]> {
    const docs = await this.campaigns.find({ 'experiment.auto_winner': true }, { projection: { _id: 0, id: 1, experiment: 1 } }).toArray();
    return docs.map((d) => experimentOf(d.id, d.experiment)).filter((e) => e.steps.some((s) => !e.winners.some((w) => w.template_id === s.template_id)));
  }

  /** Replaces the settings; the winners already decided stay (a decision is history, not a setting). */
  async put(campaignId: number, body: unknown): Promise<CampaignExperiment> {
    const input = (await validate(campaignExperimentSchema, body ?? {})) as CampaignExperimentRequest;
    const current = await this.get(campaignId);
    const steps = new Set(await this.stepsOf(campaignId));
    const unknown = input.steps.find((s) => !steps.has(s.template_id));
    if (unknown) throw new BadRequestError(`template_id ${unknown.template_id} is not a step of this campaign`);
    // A winner is kept only while its step still has that variant.
    const winners = current.winners.filter((w) => input.steps.some((s) => s.template_id === w.template_id && s.variants.some((v) => v.id === w.variant)));
    const experiment: StoredCampaignExperiment = {
      holdout_percent: input.holdout_percent,
      auto_winner: input.auto_winner,
      winner_min_recipients: input.winner_min_recipients,
      steps: input.steps.map((s) => ({
        template_id: s.template_id,
        variants: s.variants.map((v) => ({ id: v.id, share: v.share, subject: v.subject ?? null, content: v.content ?? null, delay: v.delay ?? null, incentive: variantIncentive(v.incentive) })),
      })),
      winners,
    };
    await this.campaigns.updateOne({ id: campaignId }, { $set: { experiment } });
    return experimentOf(campaignId, experiment);
  }

  /**
   * Keeps a decided winner once per step: a second decision (another instance, a later look) finds the step decided
   * and changes nothing. Returns the winner kept.
   */
  async keepWinner(campaignId: number, winner: ExperimentWinner): Promise<ExperimentWinner> {
    await this.campaigns.updateOne(
      { id: campaignId, 'experiment.winners.template_id': { $ne: winner.template_id } },
      { $push: { 'experiment.winners': winner } as never },
    );
    const now = await this.get(campaignId);
    return now.winners.find((w) => w.template_id === winner.template_id) ?? winner;
  }
}
