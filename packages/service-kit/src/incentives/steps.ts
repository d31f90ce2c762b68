import { NO_INCENTIVE, type Incentive } from './config';
import type { IncentiveModels } from './model';

/** The step key of a channel's step: `email-template:12`, `sms-template:4` (a variant may add `:variant:B`). */
export const stepKey = (channel: 'email' | 'sms', templateId: number) => `${channel}-template:${templateId}`;

/** The incentive each step carries, kept by step key (none when never set). */
export class StepIncentives {
  constructor(private readonly m: IncentiveModels) {}

  async get(key: string): Promise<Incentive> {
    const row = await this.m.Step.collection.findOne({ step_key: key }, { projection: { _id: 0, incentive: 1 } });
    return (row?.incentive as Incentive | undefined) ?? NO_INCENTIVE;
  }

  async getMany(keys: string[]): Promise<Map<string, Incentive>> {
    const unique = [...new Set(keys)];
    const rows = unique.length
      ? await this.m.Step.collection.find({ step_key: { $in: unique } }, { projection: { _id: 0, step_key: 1, incentive: 1 } }).toArray()
      : [];
    const byKey = new Map(rows.map((r) => [r.step_key as string, r.incentive as Incentive]));
    return new Map(unique.map((k) => [k, byKey.get(k) ?? NO_INCENTIVE]));
  }

  async set(key: string, incentive: Incentive, at = new Date()): Promise<Incentive> {
    await this.m.Step.collection.updateOne({ step_key: key }, { $set: { incentive, updated_at: at } }, { upsert: true });
    return incentive;
  }
}
