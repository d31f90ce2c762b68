import type { FlowStep } from '@act/flow';
import { applyCodeToRecoveryUrl, type ClickTrackingSetting, type TrackedLinks } from '@act/service-kit';
import { usesCheckoutLink, type TwilioConfig } from '@act/contracts/src/sms-api';
import { smsBody } from '../sequences/body';
import type { SmsWork } from '../sequences/work';

/**
 * With "Track clicks" on, after the incentive and before the claim (one link per contact and template, so a retry or a
 * race reuses it): a text that carries the recovery link gets our short
 * redirect link instead (`<PUBLIC_URL>/r/s` and 12 characters), kept with the contact, campaign, step, variant and
 * the link with the code applied. The text is written again with it, so its segments are those of the link sent.
 * Off: nothing read or written.
 */
export function smsTrackedLinkStep(links: TrackedLinks, setting: ClickTrackingSetting): FlowStep<SmsWork, TwilioConfig> {
  return {
    name: 'tracked link',
    async run(open, ctx) {
      const text = (w: SmsWork) => w.variant?.content ?? w.tpl!.message;
      const linked = open.filter((w) => w.link && !w.noLink && usesCheckoutLink(text(w)));
      if (linked.length === 0 || !(await setting.ourLink())) return;
      const urls = await links.issue(
        linked.map((w) => ({
          contact_ref: w.c.id,
          contact_id: w.c.contact_id,
          campaign_id: w.campaign?.id ?? null,
          template_id: w.tpl!.id,
          step: w.tpl!.sequence_order,
          variant: w.variant?.id ?? null,
          target: applyCodeToRecoveryUrl(w.link!, w.discountCode, w.codePlatform),
        })),
        ctx.now,
      );
      linked.forEach((w, i) => (w.message = smsBody(text(w), w.c, urls[i]!, w.discountCode).message));
    },
  };
}
