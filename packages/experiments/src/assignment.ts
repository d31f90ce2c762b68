import { createHash } from 'node:crypto';

/** One variant of a step and its share of the step's reminded traffic, in percent. */
export interface VariantShare {
  id: string;
  share: number;
}

export interface AssignmentInput {
  campaignId: string;
  /** The step's id or position inside the campaign. */
  step: string | number;
  /** The contact's stable key (the one the ledger names the buyer by), the same on every instance. */
  contactKey: string;
  /** The step's variants: none (the step's own content) or 2 to 4 whose shares add up to 100. */
  variants: readonly VariantShare[];
  /** The campaign's holdout share in percent, 0 to 50. */
  holdoutShare: number;
  /** The variant decided as the winner, if one was: it takes every contact assigned from then on. */
  winner?: string | null;
}

export type Assignment =
  | { kind: 'holdout' }
  /** `variant` is null for a step without variants; `forced` when the winner chose it rather than the draw. */
  | { kind: 'variant'; variant: string | null; forced: boolean };

export class AssignmentInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssignmentInputError';
  }
}

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 4;
export const MAX_HOLDOUT_SHARE = 50;
// Shares are percentages a person types; a sum within this of 100 is 100 (e.g. 33.33 + 33.33 + 33.34).
const SHARE_SUM_TOLERANCE = 1e-6;

/**
 * A number in [0, 1) from the SHA-256 of the parts: the same on every instance, retry and restart, and uniform
 * because the first 48 bits of the digest are. The parts are JSON-encoded so no two different lists hash alike.
 */
export function uniformFromKey(parts: readonly (string | number)[]): number {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** The reasons `input` cannot be assigned (empty when it can). */
export function assignmentInputErrors(input: AssignmentInput): string[] {
  const errors: string[] = [];
  if (typeof input.campaignId !== 'string' || !input.campaignId) errors.push('campaignId must be a non-empty string');
  if (!(typeof input.step === 'string' && input.step) && !(typeof input.step === 'number' && Number.isInteger(input.step) && input.step >= 0)) {
    errors.push('step must be a non-empty string or a whole number from 0');
  }
  if (typeof input.contactKey !== 'string' || !input.contactKey) errors.push('contactKey must be a non-empty string');
  if (typeof input.holdoutShare !== 'number' || !Number.isFinite(input.holdoutShare) || input.holdoutShare < 0 || input.holdoutShare > MAX_HOLDOUT_SHARE) {
    errors.push(`holdoutShare must be a percentage from 0 to ${MAX_HOLDOUT_SHARE}`);
  }
  const variants = Array.isArray(input.variants) ? input.variants : null;
  if (!variants) {
    errors.push('variants must be a list');
  } else if (variants.length > 0) {
    if (variants.length < MIN_VARIANTS || variants.length > MAX_VARIANTS) {
      errors.push(`a step has no variants or ${MIN_VARIANTS} to ${MAX_VARIANTS} of them, not ${variants.length}`);
    }
    const ids = new Set<string>();
    for (const v of variants) {
      if (typeof v?.id !== 'string' || !v.id) errors.push('every variant needs a non-empty id');
      else if (ids.has(v.id)) errors.push(`variant id "${v.id}" appears twice`);
      else ids.add(v.id);
      if (typeof v?.share !== 'number' || !Number.isFinite(v.share) || v.share <= 0 || v.share >= 100) {
        errors.push(`variant "${v?.id}" needs a share above 0 and below 100`);
      }
    }
    const sum = variants.reduce((s, v) => s + (typeof v?.share === 'number' ? v.share : 0), 0);
    if (Math.abs(sum - 100) > SHARE_SUM_TOLERANCE) errors.push(`variant shares must add up to 100, not ${sum}`);
  }
  if (input.winner != null) {
    if (!variants || !variants.some((v) => v?.id === input.winner)) errors.push(`winner "${input.winner}" is not one of the step's variants`);
  }
  return errors;
}

/**
 * Where a contact goes at a step: the campaign's holdout, or one of the step's variants. Pure and deterministic.
 *
 * The holdout is drawn from (campaign, contact) alone, so a held-out contact is held out at every step of the
 * campaign; the variant from (campaign, step, contact), independent of it, so the shares are shares of the reminded
 * traffic. Call it for a contact without a stored assignment and store the answer: a winner decided later moves only
 * the contacts assigned after it (new traffic), never a stored one.
 */
export function assignVariant(input: AssignmentInput): Assignment {
  const errors = assignmentInputErrors(input);
  if (errors.length) throw new AssignmentInputError(errors.join('; '));
  const { campaignId, step, contactKey, variants, holdoutShare, winner } = input;
  if (holdoutShare > 0 && uniformFromKey([campaignId, 'holdout', contactKey]) < holdoutShare / 100) return { kind: 'holdout' };
  if (variants.length === 0) return { kind: 'variant', variant: null, forced: false };
  if (winner != null) return { kind: 'variant', variant: winner, forced: true };
  const u = uniformFromKey([campaignId, 'step', step, contactKey]) * 100;
  let upTo = 0;
  for (const v of variants) {
    upTo += v.share;
    if (u < upTo) return { kind: 'variant', variant: v.id, forced: false };
  }
  // The shares' sum may fall a rounding short of 100: the last variant takes that sliver.
  return { kind: 'variant', variant: variants[variants.length - 1].id, forced: false };
}
