import { DAY_MS, type Channel, type Touch } from '@act/contracts/src/attribution';

/** A purchase as the revenue summary takes it: amount, when, and the reminder touches before it. */
export interface SummaryPurchase {
  funnelId: string | null;
  amount: number | null;
  currency: string | null;
  purchasedAt: Date;
  touches: Touch[];
}

/**
 * The ledger's day documents (`revenue_days`): what the summary reads, one document per UTC day and kind, found by
 * `_id` alone: a summary reads a few documents per day, not a range over every touch.
 *
 *   `r|YYYY-MM-DD`  `f<k>`: the contacts reminded that day on funnel number k, by contact number
 *   `c|YYYY-MM-DD`  `<k>|<channel>|<campaign id>`: the contacts reminded that day on funnel number k by that campaign
 *   `p|YYYY-MM-DD`  `p`: the purchases made that day; `l`: links (purchase, touch before it) of those purchases
 *
 * Every entry is written from immutable facts (the purchase as first recorded, the touch as sent, the numbers a
 * funnel and a contact got once, `revenue_funnels` / `revenue_contacts`) and added with `$addToSet`, so the
 * documents are sets: an event heard twice adds nothing, and any arrival order gives the same set. The figures are
 * still derived at query time from these facts, so no counter can drift. Contacts are numbers, not names, because
 * the 90 days' reminded sets hold some 180,000 entries at 50,000 contacts: as strings they took 200-400 ms to read.
 */

export const dayOf = (d: Date): string => new Date(d).toISOString().slice(0, 10);
export const remindedDayId = (day: string) => `r|${day}`;
export const purchaseDayId = (day: string) => `p|${day}`;
export const campaignDayId = (day: string) => `c|${day}`;

/** The UTC days of a half-open range. */
export function daysIn(from: Date, until: Date): string[] {
  const out: string[] = [];
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t < until.getTime(); t += DAY_MS) out.push(dayOf(new Date(t)));
  return out;
}

export interface DayDoc {
  _id: string;
  p?: string[];
  l?: string[];
  [funnel: `f${number}`]: number[] | undefined;
  [funnelAndCampaign: `${number}|${string}`]: number[] | undefined;
}

/** The field of funnel number k in a `r|` day document. */
export const funnelField = (k: number) => `f${k}` as const;
/** The campaign a summary row names: channel and campaign id (`null` for reminders outside any campaign). */
export const campaignKey = (channel: Channel, campaignId: number | null) => `${channel}|${campaignId}`;
/** The field of funnel number k and one campaign in a `c|` day document. */
export const campaignField = (k: number, channel: Channel, campaignId: number | null) => `${k}|${campaignKey(channel, campaignId)}`;
/** A reminded contact's name in `revenue_contacts`: one contact per funnel, as "reminded" counts them. */
export const remindedEntry = (funnelId: string | null, who: string) => `${JSON.stringify(funnelId)}\n${who}`;

export interface DayPurchase {
  id: string;
  funnelId: string | null;
  amount: number | null;
  currency: string | null;
  purchasedAt: Date;
}
export const purchaseEntry = (p: DayPurchase) => JSON.stringify([p.id, p.funnelId, p.amount, p.currency, new Date(p.purchasedAt).getTime()]);

/**
 * Only what the rule and the credit rows read of a touch: the time, the key (ties), and what it is credited as; a
 * simulated touch carries a trailing 1 (a real one's entry stays as it always was).
 */
export const linkEntry = (purchaseId: string, t: Touch) =>
  JSON.stringify([purchaseId, new Date(t.sentAt).getTime(), t.key, t.channel, t.campaignId, t.templateId, t.step, ...(t.simulated ? [1] : [])]);

/** The purchases of some `p|` day documents with their touches, as `summarize` takes them. */
export function purchasesOf(docs: DayDoc[], funnelId?: string | null): SummaryPurchase[] {
  const byId = new Map<string, SummaryPurchase>();
  for (const doc of docs)
    for (const e of doc.p ?? []) {
      const [id, funnel, amount, currency, at] = JSON.parse(e) as [string, string | null, number | null, string | null, number];
      if (funnelId !== undefined && funnel !== funnelId) continue;
      byId.set(id, { funnelId: funnel, amount, currency, purchasedAt: new Date(at), touches: [] });
    }
  for (const doc of docs)
    for (const e of doc.l ?? []) {
      const [id, sentAt, key, channel, campaignId, templateId, step, simulated] = JSON.parse(e) as [string, number, string, Channel, number | null, number | null, number | null, 1?];
      // funnelId/integrationId of the touch are not kept here: nothing in the summary reads them.
      byId.get(id)?.touches.push({ key, channel, funnelId: null, integrationId: null, campaignId, templateId, step, sentAt: new Date(sentAt), ...(simulated ? { simulated: true as const } : {}) });
    }
  return [...byId.values()];
}

/** Distinct contacts reminded over some `r|` day documents, per funnel (`funnels`: number → funnel id). */
export function remindedOf(docs: DayDoc[], funnels: Map<number, string | null>): Map<string | null, number> {
  const counts = new Map<string | null, number>();
  for (const [k, funnelId] of funnels) {
    const seen = new Set<number>();
    for (const doc of docs) for (const n of doc[funnelField(k)] ?? []) seen.add(n);
    if (seen.size) counts.set(funnelId, seen.size);
  }
  return counts;
}

/**
 * Distinct contacts reminded over some `c|` day documents, per campaign (campaignKey), on the funnels numbered in
 * `funnels`. Contact numbers are unique across funnels, so a campaign's contacts are the union of its sets.
 */
export function campaignRemindedOf(docs: DayDoc[], funnels: Set<number>): Map<string, number> {
  const seen = new Map<string, Set<number>>();
  for (const doc of docs)
    for (const [field, ns] of Object.entries(doc)) {
      const cut = field.indexOf('|');
      if (field === '_id' || cut < 0 || !Array.isArray(ns) || !funnels.has(Number(field.slice(0, cut)))) continue;
      const key = field.slice(cut + 1);
      let set = seen.get(key);
      if (!set) seen.set(key, (set = new Set()));
      for (const n of ns as number[]) set.add(n);
    }
  return new Map([...seen].map(([k, set]) => [k, set.size]));
}

/** Distinct contacts reminded by one channel over some `c|` day documents, per funnel (`funnels`: number → funnel id). */
export function channelRemindedOf(docs: DayDoc[], funnels: Map<number, string | null>, channel: Channel): Map<string | null, number> {
  const seen = new Map<number, Set<number>>();
  for (const doc of docs)
    for (const [field, ns] of Object.entries(doc)) {
      const parts = field.split('|');
      if (field === '_id' || parts.length !== 3 || parts[1] !== channel || !Array.isArray(ns)) continue;
      const k = Number(parts[0]);
      if (!funnels.has(k)) continue;
      let set = seen.get(k);
      if (!set) seen.set(k, (set = new Set()));
      for (const n of ns as number[]) set.add(n);
    }
  return new Map([...seen].map(([k, set]) => [funnels.get(k)!, set.size]));
}
