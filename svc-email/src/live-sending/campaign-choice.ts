import type { ClaimedContact } from '../reminders/sender';
import type { IntegrationCache } from '../integrations/cache';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';

/**
 * With live sending on, the campaign a reminded contact's flow goes on with: its integration's campaign, when that
 * exists, is active and has an active template (one read per campaign per burst, through `memo`); else null, and the
 * reminder stays the spec's `would_send` log.
 */
export function campaignChooser(deps: { integrations: IntegrationCache; campaigns: CampaignsService; templates: TemplatesService }) {
  return async (c: ClaimedContact, memo: Map<number, boolean>): Promise<number | null> => {
    const integration = await deps.integrations.byId(c.integration_id);
    const id = integration?.campaign_id ?? null;
    if (id === null) return null;
    if (!memo.has(id)) {
      const campaign = await deps.campaigns.find(id);
      memo.set(id, !!campaign?.active && (await deps.templates.activeOfCampaign(id)).length > 0);
    }
    return memo.get(id) ? id : null;
  };
}
