import type { FlowStep } from '@act/flow';
import { applyCodeToRecoveryUrl, type ClickTrackingSetting, type TrackedLinks } from '@act/service-kit';
import type { EmailSettings, EmailWork } from '../live-sending/work';

/**
 * With "Count clicks with: our link", after the incentive and before the claim (a failure here leaves no claim, which
 * would read as sent): each email's recovery link (the code applied, as it would have gone out) becomes our redirect
 * link, kept with the contact, campaign, step and variant (one per contact and template, so a retry reuses it).
 * The email's button, Cart block and {{recoveryUrl}} then carry `<PUBLIC_URL>/r/<token>`. Off: nothing read or written.
 */
export function emailTrackedLinkStep(links: TrackedLinks, setting: ClickTrackingSetting): FlowStep<EmailWork, EmailSettings> {
  return {
    name: 'tracked link',
    async run(open, ctx) {
      const linked = open.filter((w) => w.recoveryUrl);
      if (linked.length === 0 || !(await setting.ourLink())) return;
      const urls = await links.issue(
        linked.map((w) => ({
          contact_ref: w.ref,
          contact_id: w.contact!.contact_id,
          campaign_id: w.row.campaign_id,
          template_id: w.next!.id,
          step: w.next!.template_order,
          variant: w.variant?.id ?? null,
          target: applyCodeToRecoveryUrl(w.recoveryUrl!, w.discountCode, w.codePlatform),
        })),
        ctx.now,
      );
      linked.forEach((w, i) => (w.trackedUrl = urls[i]!));
    },
  };
}
