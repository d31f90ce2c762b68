import type { Connection } from 'mongoose';
import { UNIQUE_CODE_PREVIEW } from '@act/contracts/src/template-preview';
import { incentiveModels } from './model';
import { IncentivePools } from './pools';
import { applyCodeToRecoveryUrl } from './recovery-link';
import { StepIncentives } from './steps';

/** What a preview shows for a step's code: the code (null: the send gives none), the link with it applied, and why none. */
export interface PreviewedCode {
  code: string | null;
  recoveryUrl: string | null;
  /** Why the send would give no code (the giver's own words), or null. */
  note: string | null;
}

const SHOP_NAMES = { shopify: 'Shopify', woocommerce: 'WooCommerce' } as const;

/**
 * A step's code as its send would give it, without giving one: the step's incentive read as the giver reads it, a
 * unique code (pool or shop) shown as "(unique code)", and the recovery link rewritten as the send rewrites it (a code
 * created in Shopify goes into `/discount/<code>?redirect=`), so the preview's link shows where the code goes.
 * Nothing is claimed, created or recorded.
 */
export class PreviewCodes {
  private readonly steps: StepIncentives;
  constructor(private readonly conn: Connection) {
    this.steps = new StepIncentives(incentiveModels(conn));
  }

  /**
   * @param stepKey the step previewed; null: a template not (yet) a step, whose code shows as `chosen` or "(unique code)"
   * @param integrationId the contact's integration; undefined: sample data, as if its shop held the credentials
   * @param chosen a code the operator typed to see instead of the step's
   */
  async codeFor(stepKey: string | null, integrationId: number | null | undefined, recoveryUrl: string | null, chosen?: string | null): Promise<PreviewedCode> {
    const shown = (fallback: string | null) => chosen || fallback;
    if (!stepKey) return { code: shown(UNIQUE_CODE_PREVIEW), recoveryUrl, note: null };
    const incentive = await this.steps.get(stepKey);
    switch (incentive.kind) {
      case 'none':
        return { code: shown(null), recoveryUrl, note: null };
      case 'fixed':
        return this.onShop(shown(incentive.code), integrationId, recoveryUrl);
      case 'pool': {
        const left = await new IncentivePools(incentiveModels(this.conn)).remaining(incentive.pool_id);
        if (left === 0 && !chosen) return { code: null, recoveryUrl, note: 'sent without a code: the code pool is empty' };
        return this.onShop(shown(UNIQUE_CODE_PREVIEW), integrationId, recoveryUrl);
      }
      case 'shopify':
      case 'woocommerce': {
        if (integrationId !== undefined && !(await this.holdsCredentials(integrationId, incentive.kind)))
          return { code: null, recoveryUrl, note: `sent without a code: the integration holds no ${SHOP_NAMES[incentive.kind]} credentials` };
        const code = shown(UNIQUE_CODE_PREVIEW)!;
        return { code, recoveryUrl: recoveryUrl && applyCodeToRecoveryUrl(recoveryUrl, code, incentive.kind), note: null };
      }
    }
  }

  /** A fixed or pool code on a Shopify store's integration goes into its link, as the giver gives it. */
  private async onShop(code: string | null, integrationId: number | null | undefined, recoveryUrl: string | null): Promise<PreviewedCode> {
    const shopify = code && recoveryUrl && integrationId !== undefined && (await this.holdsCredentials(integrationId, 'shopify'));
    return { code, recoveryUrl: shopify ? applyCodeToRecoveryUrl(recoveryUrl, code, 'shopify') : recoveryUrl, note: null };
  }

  private async holdsCredentials(integrationId: number | null, platform: 'shopify' | 'woocommerce'): Promise<boolean> {
    if (integrationId === null) return false;
    const c = await incentiveModels(this.conn).Credentials.collection.findOne({ integration_id: integrationId }, { projection: { _id: 0, platform: 1 } });
    return c?.platform === platform;
  }
}
