import { creditedTouch, DAY_MS, type AttributionModel, type Channel, type Touch } from '@act/contracts/src/attribution';
import { campaignKey, type SummaryPurchase } from './days';
import type { CurrencyAmounts, RevenueCreditRow, RevenueDay, RevenueFunnel, RevenueIntegrationRow, RevenueSummary } from '@act/contracts/src/revenue-api';

export type { SummaryPurchase };

export interface SummaryInput {
  from: Date;
  until: Date;
  model: AttributionModel;
  windowDays: number;
  purchases: SummaryPurchase[];
  /** This side's integrations by funnel id: the names of the per-integration rows. */
  integrations: Map<string, { id: number; name: string }>;
  reminded: Map<string | null, number>;
  /** Distinct contacts reminded per campaign (campaignKey: channel and campaign id); none given: every campaign 0. */
  campaignReminded?: Map<string, number>;
  /** The side's own cohort funnel (contacts of the range, reminded, purchased after the reminder). */
  funnel: RevenueFunnel;
  /**
   * A side that shows its own channel only (SMS Statistics): purchases on other funnels and purchases credited to
   * the other channel are left out, as are the other channel's campaigns; `reminded` is then this channel's.
   */
  channel?: Channel;
  /** This side's reminders are only logged now (live sending off). */
  sendingSimulated?: boolean;
}

/** Sums money per currency; cents kept exact by rounding each step to 2 decimals (no float drift in a column). */
const add = (a: number, b: number | null) => Math.round((a + (b ?? 0)) * 100) / 100;

function bucket<T>(m: Map<string, T>, key: string, make: () => T): T {
  let v = m.get(key);
  if (!v) m.set(key, (v = make()));
  return v;
}

const byCurrency = <T extends { currency: string | null }>(rows: Iterable<T>) =>
  [...rows].sort((a, b) => (a.currency ?? '').localeCompare(b.currency ?? ''));

/** The summary of one range from the ledger's purchases: every figure derived here, so both sides agree. */
export function summarize(input: SummaryInput): RevenueSummary {
  const { from, until, model, windowDays } = input;
  const totals = { purchases: 0, recovered: 0, organic: 0, by_channel: { email: 0, sms: 0 } as Record<Channel, number> };
  const money = new Map<string, CurrencyAmounts>();
  const days = new Map<string, RevenueDay & { money: Map<string, RevenueDay['revenue'][number]> }>();
  for (let t = from.getTime(); t < until.getTime(); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, { date, recovered: 0, organic: 0, email: 0, sms: 0, revenue: [], money: new Map() });
  }
  const integrations = new Map<string, RevenueIntegrationRow & { money: Map<string, CurrencyAmounts> }>();
  const credits = new Map<string, RevenueCreditRow & { money: Map<string, { currency: string | null; amount: number }> }>();
  const campaigns = new Map<string, RevenueCreditRow & { money: Map<string, { currency: string | null; amount: number }> }>();

  const integrationRow = (funnelId: string | null) =>
    bucket(integrations, funnelId ?? '', () => {
      const known = funnelId !== null ? input.integrations.get(funnelId) : undefined;
      const reminded = input.reminded.get(funnelId) ?? 0;
      return { funnel_id: funnelId, integration_id: known?.id ?? null, name: known?.name ?? (funnelId ? `Funnel ${funnelId}` : 'No funnel'), purchases: 0, recovered: 0, reminded, recovery_rate: null, revenue: [], money: new Map() };
    });
  const creditRow = (m: typeof credits, t: Pick<Touch, 'channel' | 'campaignId' | 'templateId' | 'step'>, withTemplate: boolean) =>
    bucket(m, [t.channel, t.campaignId, withTemplate ? t.templateId : '', withTemplate ? t.step : ''].join('|'), () => ({
      channel: t.channel,
      campaign_id: t.campaignId,
      template_id: withTemplate ? t.templateId : null,
      step: withTemplate ? t.step : null,
      recovered: 0,
      reminded: withTemplate ? null : (input.campaignReminded?.get(campaignKey(t.channel, t.campaignId)) ?? 0),
      recovery_rate: null,
      revenue: [],
      money: new Map(),
    }));
  const credit = (m: typeof credits, t: Touch, withTemplate: boolean, amount: number | null, currency: string | null) => {
    const row = creditRow(m, t, withTemplate);
    row.recovered += 1;
    if (amount !== null) {
      const r = bucket(row.money, currency ?? '', () => ({ currency, amount: 0 }));
      r.amount = add(r.amount, amount);
    }
  };

  const simulated = { recovered: 0, by_channel: { email: 0, sms: 0 } as Record<Channel, number>, money: new Map<string, { currency: string | null; amount: number }>() };
  const only = input.channel;
  for (const p of input.purchases) {
    const all = p.touches ?? [];
    // Credit goes to reminders a shopper received; a simulated one is only told apart, as what it would have earned.
    const touch = creditedTouch(new Date(p.purchasedAt), all.filter((t) => !t.simulated), windowDays, model);
    const ours = p.funnelId !== null && input.integrations.has(p.funnelId);
    // One channel only: the other channel's recoveries, and purchases of funnels this side never served, are not its data.
    if (only && (touch ? touch.channel !== only : !ours)) continue;
    const would = touch ? null : creditedTouch(new Date(p.purchasedAt), all, windowDays, model);
    if (would && (!only || would.channel === only)) {
      simulated.recovered += 1;
      simulated.by_channel[would.channel] += 1;
      if (p.amount !== null) {
        const r = bucket(simulated.money, p.currency ?? '', () => ({ currency: p.currency ?? null, amount: 0 }));
        r.amount = add(r.amount, p.amount);
      }
    }
    const day = days.get(new Date(p.purchasedAt).toISOString().slice(0, 10));
    const currency = p.currency ?? null;
    totals.purchases += 1;
    const m = bucket(money, currency ?? '', () => ({ currency, recovered: 0, organic: 0 }));
    // One channel only: no row for a funnel this side has no integration of.
    const row = only && !ours ? null : integrationRow(p.funnelId ?? null);
    if (row) row.purchases += 1;
    const im = row ? bucket(row.money, currency ?? '', () => ({ currency, recovered: 0, organic: 0 })) : { currency, recovered: 0, organic: 0 };
    const dm = day ? bucket(day.money, currency ?? '', () => ({ currency, email: 0, sms: 0, organic: 0 })) : null;
    if (touch) {
      totals.recovered += 1;
      totals.by_channel[touch.channel] += 1;
      if (row) row.recovered += 1;
      m.recovered = add(m.recovered, p.amount);
      im.recovered = add(im.recovered, p.amount);
      if (day && dm) {
        day.recovered += 1;
        day[touch.channel] += 1;
        dm[touch.channel] = add(dm[touch.channel], p.amount);
      }
      credit(credits, touch, true, p.amount, currency);
      credit(campaigns, touch, false, p.amount, currency);
    } else {
      totals.organic += 1;
      m.organic = add(m.organic, p.amount);
      im.organic = add(im.organic, p.amount);
      if (day && dm) {
        day.organic += 1;
        dm.organic = add(dm.organic, p.amount);
      }
    }
  }
  // Integrations with reminders and no purchase yet still show (a 0% recovery rate is a finding).
  for (const funnelId of input.reminded.keys()) if (funnelId === null ? !only : input.integrations.has(funnelId)) integrationRow(funnelId);
  // So do campaigns (a campaign page shows its 0%).
  for (const key of input.campaignReminded?.keys() ?? []) {
    const cut = key.indexOf('|');
    if (only && key.slice(0, cut) !== only) continue;
    const id = key.slice(cut + 1);
    creditRow(campaigns, { channel: key.slice(0, cut) as Channel, campaignId: id === 'null' ? null : Number(id), templateId: null, step: null }, false);
  }

  const creditRows = (m: typeof credits) =>
    [...m.values()]
      .map(({ money: mm, ...r }) => ({ ...r, recovery_rate: r.reminded ? Math.round((r.recovered / r.reminded) * 10_000) / 10_000 : null, revenue: byCurrency(mm.values()) }))
      .sort((a, b) => b.recovered - a.recovered || (b.revenue[0]?.amount ?? 0) - (a.revenue[0]?.amount ?? 0) || a.channel.localeCompare(b.channel) || (a.campaign_id ?? 0) - (b.campaign_id ?? 0) || (a.step ?? 0) - (b.step ?? 0));
  return {
    from: from.toISOString().slice(0, 10),
    to: new Date(until.getTime() - DAY_MS).toISOString().slice(0, 10),
    model,
    window_days: windowDays,
    totals: { ...totals, revenue: byCurrency(money.values()) },
    series: [...days.values()].map(({ money: mm, ...d }) => ({ ...d, revenue: byCurrency(mm.values()) })),
    integrations: [...integrations.values()]
      .map(({ money: mm, ...r }) => ({ ...r, recovery_rate: r.reminded > 0 ? Math.round((r.recovered / r.reminded) * 10_000) / 10_000 : null, revenue: byCurrency(mm.values()) }))
      .sort((a, b) => b.recovered - a.recovered || b.purchases - a.purchases || a.name.localeCompare(b.name)),
    campaigns: creditRows(campaigns),
    templates: creditRows(credits),
    funnel: input.funnel,
    simulated: { recovered: simulated.recovered, by_channel: simulated.by_channel, revenue: byCurrency(simulated.money.values()) },
    sending_simulated: input.sendingSimulated ?? false,
    channel: only ?? null,
  };
}
