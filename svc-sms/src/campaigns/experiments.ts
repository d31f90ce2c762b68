import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { ExperimentSettings, ExperimentsService, experimentsRouter, type AttributionLedger, type Engagement, type Logger } from '@act/service-kit';
import { templateModel } from '../templates/model';
import { logModel, type LogDoc } from '../logs/model';
import { campaignModel } from './model';
import type { SmsTrackedLinks } from '../links';

/** How often an instance looks for a winner to decide (a campaign's results are a few reads of its ledger). */
const WINNER_CHECK_MS = 5 * 60_000;

/**
 * SMS campaign experiments (holdout, step variants, results): `/api/sms-campaigns/{id}/experiment` and
 * `/api/sms-campaigns/{id}/results`. Delivered per variant comes from the SMS logs (Twilio's reports); clicked from
 * the clicks on our redirect links when the operator tracks clicks (Twilio reports none: null otherwise).
 */
export function smsExperiments(conn: Connection, ledger: AttributionLedger, windowDays: () => Promise<number>, tracked?: SmsTrackedLinks) {
  const Template = templateModel(conn);
  const logs = logModel(conn).collection as unknown as Collection<LogDoc>;
  const settings = new ExperimentSettings(campaignModel(conn).collection as never, async (id) =>
    (await Template.collection.find({ campaign_id: id }, { projection: { _id: 0, id: 1 } }).toArray()).map((t) => t.id as number),
  );
  const engagement = async (campaignId: number): Promise<Engagement> => {
    const steps = (await settings.get(campaignId)).steps;
    const out: Engagement = new Map();
    if (steps.length === 0) return out;
    // Only the delivered rows: Twilio's report moves a step's row to `delivered`.
    const rows = await logs
      .find({ template_id: { $in: steps.map((s) => s.template_id) }, status: 'delivered' }, { projection: { _id: 0, template_id: 1, variant: 1, contact_ref: 1 } })
      .toArray();
    const seen = new Map<string, Set<number | null>>();
    for (const r of rows) {
      if (!r.variant) continue;
      const key = `${r.template_id}|${r.variant}`;
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(r.contact_ref);
    }
    const ourLink = !!tracked && (await tracked.setting.ourLink());
    for (const s of steps) {
      const clicks = ourLink ? await tracked!.links.clickedPerVariant(s.template_id, s.variants.map((v) => v.id)) : null;
      for (const v of s.variants) out.set(`${s.template_id}|${v.id}`, { delivered: seen.get(`${s.template_id}|${v.id}`)?.size ?? 0, clicked: clicks ? (clicks.get(v.id) ?? 0) : null });
    }
    return out;
  };
  // The switch decides where clicked comes from (or, for SMS, whether there is one): results counted before it changed
  // are not served after.
  const basis = async () => String(!!tracked && (await tracked.setting.ourLink()));
  const service = new ExperimentsService({ channel: 'sms', settings, ledger, windowDays, engagement, basis });
  return {
    router: experimentsRouter('/api/sms-campaigns', service, '/api/sms/revenue/incremental'),
    /** The automatic winners' look while nobody opens the pages (every WINNER_CHECK_MS). */
    startWinnerChecks: (logger: Logger) => service.startWinnerChecks({ everyMs: WINNER_CHECK_MS, logger }),
  };
}
