import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { ExperimentSettings, ExperimentsService, experimentsRouter, type AttributionLedger, type Engagement, type Logger } from '@act/service-kit';
import { emailTemplateModel } from '../templates/model';
import { emailLogModel, type EmailLogDoc } from '../email-logs/model';
import { campaignModel } from './model';
import type { EmailTrackedLinks } from '../links';

/** Resend's furthest report on an email that says it arrived (a complaint comes after delivery). */
const DELIVERED = new Set(['delivered', 'opened', 'clicked', 'complained']);

/** How often an instance looks for a winner to decide (a campaign's results are a few reads of its ledger). */
const WINNER_CHECK_MS = 5 * 60_000;

/**
 * Email campaign experiments (holdout, step variants, results): `/api/email/campaigns/{id}/experiment` and
 * `/api/email/campaigns/{id}/results`. Delivered per variant comes from Resend's events on the email logs (each row
 * keeps the furthest: a click after delivery counts for both); clicked from those events too, or, when the operator
 * counts clicks with our link, from the clicks on our redirect links.
 */
export function emailExperiments(conn: Connection, ledger: AttributionLedger, windowDays: () => Promise<number>, tracked?: EmailTrackedLinks) {
  const templates = emailTemplateModel(conn).collection;
  const logs = emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>;
  const settings = new ExperimentSettings(campaignModel(conn).collection as never, async (id) =>
    (await templates.find({ campaign_id: id }, { projection: { _id: 0, id: 1 } }).toArray()).map((t) => t.id as number),
  );
  const engagement = async (campaignId: number): Promise<Engagement> => {
    const out: Engagement = new Map();
    const ourLink = !!tracked && (await tracked.setting.ourLink());
    for (const s of (await settings.get(campaignId)).steps) {
      const rows = await logs
        .find({ template_id: s.template_id, variant: { $in: s.variants.map((v) => v.id) } }, { projection: { _id: 0, variant: 1, delivery: 1, contact_ref: 1 } })
        .toArray();
      const linkClicks = ourLink ? await tracked!.links.clickedPerVariant(s.template_id, s.variants.map((v) => v.id)) : null;
      for (const v of s.variants) {
        const mine = rows.filter((r) => r.variant === v.id);
        out.set(`${s.template_id}|${v.id}`, {
          delivered: new Set(mine.filter((r) => r.delivery && DELIVERED.has(r.delivery)).map((r) => r.contact_ref)).size,
          clicked: linkClicks ? (linkClicks.get(v.id) ?? 0) : new Set(mine.filter((r) => r.delivery === 'clicked').map((r) => r.contact_ref)).size,
        });
      }
    }
    return out;
  };
  // The switch decides where clicked comes from (or, for SMS, whether there is one): results counted before it changed
  // are not served after.
  const basis = async () => String(!!tracked && (await tracked.setting.ourLink()));
  const service = new ExperimentsService({ channel: 'email', settings, ledger, windowDays, engagement, basis });
  return {
    router: experimentsRouter('/api/email/campaigns', service, '/api/revenue/incremental'),
    /** The automatic winners' look while nobody opens the pages (every WINNER_CHECK_MS). */
    startWinnerChecks: (logger: Logger) => service.startWinnerChecks({ everyMs: WINNER_CHECK_MS, logger }),
  };
}
