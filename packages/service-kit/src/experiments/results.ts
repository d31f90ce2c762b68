import {
  decideWinner,
  groupFigures,
  incrementalRevenue,
  type GroupCounts,
  type Interval,
  type WinnerDecision,
} from '@act/experiments';
import { DAY_MS, type Channel } from '@act/contracts/src/attribution';
import type {
  CampaignExperiment,
  CampaignResults,
  ExperimentWinner,
  GroupResult,
  IncrementalResult,
  ResultInterval,
  StepResult,
} from '@act/contracts/src/experiments-api';
import type { AttributionLedger, TouchDoc } from '../attribution/ledger';

/** Delivered and clicked per step and variant (`templateId|variant`), where the channel has them. */
export type Engagement = Map<string, { delivered: number | null; clicked: number | null }>;

interface ContactFacts {
  keys: Set<string>;
  /** The holdout mark's time (held out), else null. */
  heldAt: number | null;
  /** The first real send of the campaign to the contact. */
  firstSent: number | null;
  /** Per step (template id): the variant and when the step's message went. */
  steps: Map<number, { variant: string | null; at: number; step: number | null }>;
}

interface Bought {
  at: number;
  amount: number | null;
  currency: string | null;
}

const interval = (i: Interval | null): ResultInterval | null => (i ? { estimate: i.estimate, lower: i.lower, upper: i.upper } : null);

function counts(amounts: (number | null)[], engagement?: { delivered: number | null; clicked: number | null }): GroupCounts & { purchasersOnly: number } {
  let purchasers = 0;
  let revenue = 0;
  let revenueSquares = 0;
  for (const a of amounts) {
    if (a === null) continue;
    purchasers++;
    revenue += a;
    revenueSquares += a * a;
  }
  return {
    recipients: amounts.length,
    purchasers,
    revenue,
    revenueSquares,
    ...(engagement?.delivered != null ? { delivered: Math.min(engagement.delivered, amounts.length) } : {}),
    ...(engagement?.clicked != null ? { clicked: Math.min(engagement.clicked, amounts.length) } : {}),
    purchasersOnly: purchasers,
  };
}

function groupResult(id: string, g: GroupCounts): GroupResult {
  const f = groupFigures(g);
  return {
    id,
    recipients: g.recipients,
    delivered: g.delivered ?? null,
    clicked: g.clicked ?? null,
    purchasers: g.purchasers,
    revenue: Math.round(g.revenue * 100) / 100,
    delivery_rate: interval(f.deliveryRate),
    click_rate: interval(f.clickRate),
    conversion_rate: interval(f.conversionRate),
    revenue_per_recipient: interval(f.revenuePerRecipient),
    more_recipients_needed: f.sufficiency.enough ? 0 : f.sufficiency.moreRecipients,
    enough_data: f.sufficiency.enough,
  };
}

/**
 * A campaign's experiment results from the attribution ledger's records (the same touches and purchases the
 * recovered revenue comes from; holdout marks beside them), per contact: a contact counts for a group once, and as a
 * purchaser when it bought within the attribution window after the group's message (the holdout: after the time it
 * was held out, when its first reminder would have gone; all reminded contacts: after their first reminder of the
 * campaign). Revenue counts one currency, the campaign's most common; a purchase without an amount is a purchase with
 * no revenue. Only real sends count (a simulated reminder reached nobody).
 */
export async function campaignResults({
  ledger,
  channel,
  experiment,
  windowDays,
  engagement,
}: {
  ledger: AttributionLedger;
  channel: Channel;
  experiment: CampaignExperiment;
  windowDays: number;
  engagement?: Engagement;
}): Promise<{ results: CampaignResults; decisions: Map<number, WinnerDecision> }> {
  const campaignId = experiment.campaign_id;
  const touches = await ledger.touches
    .find({ campaignId, channel }, { projection: { _id: 0, keys: 1, who: 1, sentAt: 1, templateId: 1, step: 1, variant: 1, holdout: 1, simulated: 1 } })
    .toArray();
  const contacts = new Map<string, ContactFacts>();
  for (const t of touches as TouchDoc[]) {
    if (t.simulated) continue;
    let c = contacts.get(t.who);
    if (!c) contacts.set(t.who, (c = { keys: new Set(), heldAt: null, firstSent: null, steps: new Map() }));
    for (const k of t.keys) c.keys.add(k);
    const at = new Date(t.sentAt).getTime();
    if (t.holdout) {
      c.heldAt = c.heldAt === null ? at : Math.min(c.heldAt, at);
      continue;
    }
    c.firstSent = c.firstSent === null ? at : Math.min(c.firstSent, at);
    const tid = t.templateId ?? 0;
    const prior = c.steps.get(tid);
    if (!prior || at < prior.at) c.steps.set(tid, { variant: t.variant ?? null, at, step: t.step });
  }

  // The purchases of the campaign's period, in one read by time (the purchasedAt index): bounded by the purchases
  // made then, where a read by the contacts' names was a `$in` of tens of thousands of keys. Kept by name.
  const byKey = new Map<string, Bought[]>();
  const allKeys = new Set([...contacts.values()].flatMap((c) => [...c.keys]));
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of contacts.values()) {
    for (const at of [c.heldAt, c.firstSent]) if (at !== null) [lo, hi] = [Math.min(lo, at), Math.max(hi, at)];
    for (const s of c.steps.values()) hi = Math.max(hi, s.at);
  }
  const windowMs = windowDays * DAY_MS;
  if (contacts.size > 0) {
    const found = await ledger.purchases
      .find({ purchasedAt: { $gte: new Date(lo), $lte: new Date(hi + windowMs) } }, { projection: { _id: 1, buyerKeys: 1, purchasedAt: 1, amount: 1, currency: 1 } })
      .toArray();
    for (const p of found) {
      const b: Bought = { at: p.purchasedAt.getTime(), amount: p.amount, currency: p.currency };
      for (const k of p.buyerKeys) {
        if (!allKeys.has(k)) continue;
        let list = byKey.get(k);
        if (!list) byKey.set(k, (list = []));
        list.push(b);
      }
    }
  }
  const purchasesOf = (c: ContactFacts, from: number): Bought[] => {
    const out = new Map<unknown, Bought>();
    for (const k of c.keys) for (const b of byKey.get(k) ?? []) if (b.at >= from && b.at <= from + windowMs) out.set(b, b);
    return [...out.values()];
  };
  // The currency most purchases of the campaign's contacts were made in.
  const tally = new Map<string, number>();
  for (const list of byKey.values()) for (const b of list) if (b.currency) tally.set(b.currency, (tally.get(b.currency) ?? 0) + 1);
  const currency = [...tally].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  /** The contact's revenue after `from` (null: no purchase), in the campaign's currency. */
  const amountOf = (c: ContactFacts, from: number): number | null => {
    const bought = purchasesOf(c, from);
    if (bought.length === 0) return null;
    return bought.reduce((s, b) => s + (b.currency === currency && b.amount !== null ? b.amount : 0), 0);
  };

  const held: (number | null)[] = [];
  const reminded: (number | null)[] = [];
  const perVariant = new Map<string, (number | null)[]>();
  const stepNumber = new Map<number, number | null>();
  for (const c of contacts.values()) {
    if (c.heldAt !== null) {
      held.push(amountOf(c, c.heldAt));
      continue;
    }
    if (c.firstSent === null) continue;
    reminded.push(amountOf(c, c.firstSent));
    for (const [tid, s] of c.steps) {
      stepNumber.set(tid, s.step);
      if (s.variant === null) continue;
      const key = `${tid}|${s.variant}`;
      let list = perVariant.get(key);
      if (!list) perVariant.set(key, (list = []));
      list.push(amountOf(c, s.at));
    }
  }

  const remindedCounts = counts(reminded);
  const heldCounts = counts(held);
  const inc = incrementalRevenue(remindedCounts, heldCounts);
  const incremental: IncrementalResult =
    inc.status === 'ok'
      ? {
          status: 'ok',
          conversion_lift: interval(inc.conversionLift)!,
          revenue_per_contact_lift: interval(inc.revenuePerContactLift)!,
          incremental_revenue: interval(inc.incrementalRevenue)!,
          reminded_contacts: inc.remindedContacts,
        }
      : {
          status: 'not_enough_data',
          reminded_more_needed: inc.reminded.enough ? 0 : inc.reminded.moreRecipients,
          holdout_more_needed: inc.holdout.enough ? 0 : inc.holdout.moreRecipients,
        };

  const decisions = new Map<number, WinnerDecision>();
  const steps: StepResult[] = experiment.steps.map((s) => {
    const groups = s.variants.map((v) => ({ id: v.id, ...counts(perVariant.get(`${s.template_id}|${v.id}`) ?? [], engagement?.get(`${s.template_id}|${v.id}`)) }));
    const kept = experiment.winners.find((w) => w.template_id === s.template_id) ?? null;
    // A kept decision stands: no simulation again (10,000 draws per variant) for a step already decided.
    const decision: WinnerDecision = kept
      ? { status: 'winner', winner: kept.variant, probabilities: kept.probabilities, basedOn: [] }
      : decideWinner(
          groups.map(({ purchasersOnly: _p, ...g }) => g),
          { minRecipients: experiment.winner_min_recipients },
        );
    decisions.set(s.template_id, decision);
    return {
      template_id: s.template_id,
      step: stepNumber.get(s.template_id) ?? null,
      variants: groups.map((g) => groupResult(g.id, g)),
      winner: kept,
      leader: decision.status === 'winner' ? decision.winner : decision.leader,
      probabilities: decision.probabilities,
      more_recipients_per_variant:
        decision.status === 'winner' ? 0 : decision.moreRecipients ? Math.max(...Object.values(decision.moreRecipients)) : null,
    };
  });

  return {
    results: {
      campaign_id: campaignId,
      channel,
      window_days: windowDays,
      currency,
      holdout_percent: experiment.holdout_percent,
      reminded: groupResult('reminded', remindedCounts),
      holdout: groupResult('holdout', heldCounts),
      incremental,
      steps,
    },
    decisions,
  };
}

/** The winner record of a decision, to keep with its time. */
export function winnerRecord(templateId: number, d: Extract<WinnerDecision, { status: 'winner' }>, at: Date): ExperimentWinner {
  return {
    template_id: templateId,
    variant: d.winner,
    decided_at: at.toISOString(),
    probabilities: d.probabilities,
    based_on: d.basedOn.map((v) => ({ id: v.id, recipients: v.recipients, purchasers: v.purchasers, revenue: Math.round(v.revenue * 100) / 100 })),
  };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const ci = (i: ResultInterval | null) => (i ? [i.estimate, i.lower, i.upper] : ['', '', '']);

/** One row per step variant, then the reminded contacts and the holdout. */
export function resultsCsv(r: CampaignResults): string {
  const head = [
    'template_id', 'step', 'group', 'recipients', 'delivered', 'clicked', 'purchasers', 'revenue', 'currency',
    'conversion', 'conversion_low', 'conversion_high', 'revenue_per_recipient', 'rpr_low', 'rpr_high', 'more_recipients_needed', 'winner',
  ];
  const row = (tid: number | '', step: number | null | '', g: GroupResult, winner: boolean) => [
    tid, step, g.id, g.recipients, g.delivered, g.clicked, g.purchasers, g.revenue, r.currency,
    ...ci(g.conversion_rate), ...ci(g.revenue_per_recipient), g.enough_data ? 0 : g.more_recipients_needed, winner ? 'yes' : '',
  ];
  const rows: unknown[][] = [head];
  for (const s of r.steps) for (const v of s.variants) rows.push(row(s.template_id, s.step, v, s.winner?.variant === v.id));
  rows.push(row('', '', r.reminded, false), row('', '', r.holdout, false));
  return rows.map((cols) => cols.map(csvCell).join(',')).join('\n') + '\n';
}
