import { assignVariant, type VariantShare } from '@act/experiments';
import type { BurstContext, FlowStep } from './pipeline';

/** What a contact's row already holds of its campaign's experiment: drawn once, never again. */
export interface StoredExperiment {
  /** Held out of the campaign (the control group); absent until drawn. */
  holdout?: boolean;
  /** The variant per step (template id as the key). */
  variants?: Record<string, string>;
}

/** A campaign's experiment as it bears on one step. */
export interface StepPlan {
  /** The campaign's holdout share, 0 to 50 percent. */
  holdoutShare: number;
  /** None, or 2 to 4 variants whose shares add up to 100. */
  variants: VariantShare[];
  /** A winner decided for the step: it takes every contact assigned from now on. */
  winner: string | null;
}

export interface ExperimentTarget {
  /** The campaign as the draw names it (the channel in it, so two channels' campaign 1 draw apart). */
  campaignId: string;
  campaign: number;
  step: number;
  contactKey: string;
  stored: StoredExperiment | null | undefined;
}

/** A draw the row did not hold yet: what `keep` writes. */
export interface NewAssignment<W> {
  w: W;
  /** Set when the holdout was drawn now. */
  holdout?: boolean;
  step: number;
  /** Set when the step's variant was drawn now. */
  variant?: string;
}

export interface ExperimentStepOptions<W, S> {
  /** The work's campaign, step and contact, with what its row holds; null when the work has nothing to assign. */
  target(w: W): ExperimentTarget | null;
  /** The campaign's experiment for the step (null: none), as the work read it. Asked once per (campaign, step) and burst. */
  plan(target: ExperimentTarget, w: W): Promise<StepPlan | null> | StepPlan | null;
  /** Writes the new draws on the rows before anything is sent (the burst holds their leases). */
  keep(items: NewAssignment<W>[], ctx: BurstContext<S>): Promise<void>;
  /** A held-out contact: the channel decides the work (no message) and tells the ledger. */
  holdOut(w: W, ctx: BurstContext<S>): void;
  /** The contact's variant of the step, stored or drawn now (not called for a step without variants). */
  apply(w: W, variant: string, ctx: BurstContext<S>): void;
}

/**
 * The assignment step both channels run before a step's rules and claim: the holdout drawn once per (campaign,
 * contact), the variant once per (campaign, step, contact), both stored on the contact's row, so a retry, a second
 * instance or a restart reads the answer instead of drawing again (a winner decided meanwhile moves only contacts
 * not yet assigned). A campaign without an experiment costs nothing: no draw and no write.
 */
export function experimentStep<W, S>(opts: ExperimentStepOptions<W, S>, name = 'experiment'): FlowStep<W, S> {
  return {
    name,
    async run(open: W[], ctx: BurstContext<S>): Promise<void> {
      const plans = new Map<string, Promise<StepPlan | null>>();
      const planOf = (t: ExperimentTarget, w: W) => {
        const key = `${t.campaign}|${t.step}`;
        let p = plans.get(key);
        if (!p) plans.set(key, (p = Promise.resolve(opts.plan(t, w))));
        return p;
      };
      const fresh: NewAssignment<W>[] = [];
      const decided: { w: W; holdout: boolean; variant: string | null }[] = [];
      for (const w of open) {
        const t = opts.target(w);
        if (!t) continue;
        const plan = await planOf(t, w);
        const stored = t.stored ?? {};
        const storedVariant = stored.variants?.[String(t.step)];
        const hasVariants = !!plan && plan.variants.length > 0;
        if (stored.holdout === undefined && !(plan && plan.holdoutShare > 0) && !hasVariants && storedVariant === undefined) continue;
        const item: NewAssignment<W> = { w, step: t.step };
        let holdout = stored.holdout;
        if (holdout === undefined) {
          const drawn = assignVariant({ campaignId: t.campaignId, step: t.step, contactKey: t.contactKey, variants: [], holdoutShare: plan?.holdoutShare ?? 0 });
          item.holdout = holdout = drawn.kind === 'holdout';
        }
        let variant: string | null = storedVariant ?? null;
        if (!holdout && variant === null && hasVariants) {
          const drawn = assignVariant({ campaignId: t.campaignId, step: t.step, contactKey: t.contactKey, variants: plan!.variants, holdoutShare: 0, winner: plan!.winner });
          if (drawn.kind === 'variant' && drawn.variant) item.variant = variant = drawn.variant;
        }
        if (item.holdout !== undefined || item.variant !== undefined) fresh.push(item);
        decided.push({ w, holdout, variant });
      }
      if (fresh.length) await opts.keep(fresh, ctx);
      for (const d of decided) {
        if (d.holdout) opts.holdOut(d.w, ctx);
        else if (d.variant) opts.apply(d.w, d.variant, ctx);
      }
    },
  };
}
