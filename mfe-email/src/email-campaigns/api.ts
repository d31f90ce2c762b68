/**
 * Keys and shapes of the campaign and campaign-template calls (spec §7). Every load is a GET on its key
 * (ui-kit's fetcher), and every change refetches by these same strings.
 */
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { TEMPLATES } from '../shared/keys';

export type { CampaignRequest, EmailCampaign, EmailTemplate, TestEmailResponse } from '@act/contracts/src/email-api';

export const CAMPAIGNS = '/api/email/campaigns';
export const campaignKey = (id: number) => `${CAMPAIGNS}/${id}`;
export const campaignTemplatesKey = (campaignId: number) => `${TEMPLATES}/campaign/${campaignId}`;
export const templateKey = (id: number) => `${TEMPLATES}/${id}`;

/** Keys a campaign change can affect: the campaign list and each single campaign. */
export const isCampaignKey = (key: unknown) => typeof key === 'string' && key.startsWith(CAMPAIGNS);
/** Keys a template change can affect: the template list (integrations, legacy page) and each campaign's. */
export const isTemplateKey = (key: unknown) =>
  typeof key === 'string' && (key === TEMPLATES || key.startsWith(`${TEMPLATES}?`) || key.startsWith(`${TEMPLATES}/`));

/**
 * After a successful change (spec §7) the shown lists reload in place; any other cached copy is dropped,
 * so a page visited later loads anew instead of showing what it had before (the SWR defaults never
 * revalidate cached data on mount).
 */
export function useReload() {
  const { cache, mutate } = useSWRConfig();
  return useCallback(
    async (matches: (key: unknown) => boolean, shown: readonly string[]) => {
      const keys = [...cache.keys()].filter(matches);
      await Promise.all(
        keys.map((key) => (shown.includes(key) ? mutate(key) : mutate(key, undefined, { revalidate: false }))),
      ).catch(() => {
        // A failed reload shows in the page that owns the list; the change itself succeeded.
      });
    },
    [cache, mutate],
  );
}
