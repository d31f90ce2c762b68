import { experimentStep, type NewAssignment, type StepPlan, type StoredExperiment } from './experiment';
import type { BurstContext } from './pipeline';

const ctx: BurstContext = { now: new Date(0), leaseId: 'lease-1', leaseUntil: new Date(60_000), release: () => undefined, settings: undefined };

interface W {
  ref: number;
  stored: StoredExperiment | null;
  outcome?: string;
  variant?: string;
}

/** A burst through the step with a store in memory: what it kept, and each work's answer. */
async function run(works: W[], plan: StepPlan | null, kept: NewAssignment<W>[] = []) {
  const plans: number[] = [];
  const step = experimentStep<W, undefined>({
    target: (w) => ({ campaignId: 'sms:7', campaign: 7, step: 3, contactKey: `c${w.ref}`, stored: w.stored }),
    plan: () => {
      plans.push(1);
      return plan;
    },
    keep: async (items) => {
      kept.push(...items);
      for (const i of items) {
        const s = i.w.stored ?? {};
        i.w.stored = { ...s, ...(i.holdout !== undefined ? { holdout: i.holdout } : {}), variants: { ...s.variants, ...(i.variant ? { [String(i.step)]: i.variant } : {}) } };
      }
    },
    holdOut: (w) => void (w.outcome = 'held_out'),
    apply: (w, v) => void (w.variant = v),
  });
  await step.run(works, ctx);
  return { kept, plans: plans.length };
}

const contacts = (n: number): W[] => Array.from({ length: n }, (_, i) => ({ ref: i, stored: null }));
const plan: StepPlan = { holdoutShare: 20, variants: [{ id: 'A', share: 50 }, { id: 'B', share: 50 }], winner: null };

describe('the assignment step', () => {
  it('holds out about the share, splits the rest by the variants, asks the plan once per step and keeps every draw', async () => {
    const works = contacts(1000);
    const { kept, plans } = await run(works, plan);
    expect(plans).toBe(1);
    const held = works.filter((w) => w.outcome === 'held_out').length;
    const a = works.filter((w) => w.variant === 'A').length;
    const b = works.filter((w) => w.variant === 'B').length;
    expect(held + a + b).toBe(1000);
    expect(Math.abs(held / 10 - 20)).toBeLessThanOrEqual(3);
    expect(Math.abs(a / 10 - 40)).toBeLessThanOrEqual(3);
    expect(Math.abs(b / 10 - 40)).toBeLessThanOrEqual(3);
    expect(kept).toHaveLength(1000);
    // A held-out contact gets no variant.
    expect(works.filter((w) => w.outcome === 'held_out' && w.variant)).toEqual([]);
  });

  it('reads a stored answer instead of drawing again, even after a winner or a new holdout share', async () => {
    const works = contacts(200);
    await run(works, plan);
    const before = works.map((w) => [w.outcome, w.variant]);
    for (const w of works) {
      delete w.outcome;
      delete w.variant;
    }
    const { kept } = await run(works, { holdoutShare: 50, variants: plan.variants, winner: 'B' });
    expect(kept).toEqual([]);
    expect(works.map((w) => [w.outcome, w.variant])).toEqual(before);
  });

  it('gives the winner every contact assigned after it; the holdout still goes on', async () => {
    const works = contacts(300);
    await run(works, { ...plan, winner: 'A' });
    expect(works.filter((w) => w.variant === 'B')).toEqual([]);
    expect(works.filter((w) => w.outcome === 'held_out').length).toBeGreaterThan(30);
  });

  it('costs nothing for a campaign without an experiment', async () => {
    const works = contacts(50);
    const { kept } = await run(works, null);
    expect(kept).toEqual([]);
    expect(works.filter((w) => w.outcome || w.variant)).toEqual([]);
  });
});
