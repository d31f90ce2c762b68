// bench/revenue.mjs's data: a ledger of CONTACTS reminded contacts, SENDS reminders and about PURCHASES purchases over
// the last DAYS days, written straight into one service's ledger collections in the documents AttributionLedger
// writes (built with its own helpers: buyerKeys, makeTouch, the day-document entries), with bulk inserts instead of
// one event at a time (200,000 events through the consumer would take the bench most of an hour here).
import type { Db } from 'mongodb';
import { buyerKeys, DAY_MS, makeTouch, MAX_WINDOW_DAYS, purchaseFingerprint, SAME_PURCHASE_MS, type Touch } from '../packages/contracts/src/attribution';
import { campaignDayId, campaignField, dayOf, funnelField, linkEntry, purchaseDayId, purchaseEntry, remindedDayId, remindedEntry } from '../packages/service-kit/src/attribution/days';

export interface SeedOptions {
  contacts: number;
  sends: number;
  purchases: number;
  days: number;
  funnels: string[];
  now: number;
}

/** The same seed gives the same ledger, so both services get the same facts (as their consumers would give them). */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (x + 0x6d2b79f5) >>> 0;
    let t = x;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedFacts {
  touches: number;
  purchases: number;
  /** Distinct contacts reminded per range length (days back from today, UTC days), for the bench's checks. */
  remindedByRange: Record<number, number>;
  purchasesByRange: Record<number, number>;
  /** Per contact (`rc-<i>`): its first reminder's time, the reminders that reached it and its own purchase. */
  people: SeededPerson[];
}

export interface SeededPerson {
  contactId: string;
  email: string;
  startedAt: number;
  sends: { channel: 'email' | 'sms'; at: number; templateId: number; variant: string }[];
  purchasedAt: number | null;
}

export async function seedLedger(db: Db, o: SeedOptions): Promise<SeedFacts> {
  const rand = rng(17);
  const today = Date.UTC(new Date(o.now).getUTCFullYear(), new Date(o.now).getUTCMonth(), new Date(o.now).getUTCDate());
  const sendsPer = Math.max(1, Math.round(o.sends / o.contacts));
  const purchaseEvery = Math.max(1, Math.round(o.contacts / o.purchases));
  // A reminder sequence: first at the contact's start, then after a day, three days, a week (clipped to now).
  const steps = [0, DAY_MS, 3 * DAY_MS, 7 * DAY_MS, 10 * DAY_MS].slice(0, sendsPer);
  const touches: Record<string, unknown>[] = [];
  const purchases: Record<string, unknown>[] = [];
  // Day → funnel number → contact numbers; the numbers as AttributionLedger gives them (revenue_funnels/_contacts).
  const reminded = new Map<string, Map<number, Set<number>>>();
  // Day → funnel number|channel|campaign → contact numbers (the `c|` documents of the per-campaign reminded counts).
  const byCampaign = new Map<string, Map<string, Set<number>>>();
  const funnelNo = new Map(o.funnels.map((f, k) => [f, k + 1]));
  const contactNo = new Map<string, number>();
  const purchaseDays = new Map<string, { p: Set<string>; l: Set<string> }>();
  const remindedDays: { who: string; at: number }[] = [];
  const people: SeededPerson[] = [];
  const purchaseTimes: number[] = [];
  const dayDoc = (day: string) => {
    let d = purchaseDays.get(day);
    if (!d) purchaseDays.set(day, (d = { p: new Set(), l: new Set() }));
    return d;
  };
  for (let i = 0; i < o.contacts; i++) {
    const funnelId = o.funnels[i % o.funnels.length]!;
    const buyer = { funnelId, contactId: `rc-${i}`, email: `rev${i}@example.com`, phone: null };
    const keys = buyerKeys(buyer);
    const start = o.now - rand() * (o.days - 1) * DAY_MS - (steps.at(-1) ?? 0) * rand();
    const mine: Touch[] = [];
    const person: SeededPerson = { contactId: buyer.contactId, email: buyer.email, startedAt: start, sends: [], purchasedAt: null };
    people.push(person);
    // Every campaign runs an experiment: a 20% holdout (marks where its reminders would have gone: never reminded,
    // never linked) and two variants of each step for the rest.
    // (By blocks of five, so the held-out contacts include buyers: every fifth contact buys.)
    const heldOut = Math.floor(i / 5) % 5 === 4;
    for (let s = 0; s < steps.length; s++) {
      const sentAt = Math.min(o.now - 1000, start + steps[s]! + Math.floor(rand() * 3_600_000));
      const channel = (i + s) % 2 ? 'sms' : 'email';
      const experiment = heldOut ? { holdout: true as const } : { variant: (i >> 1) % 2 ? 'B' : 'A' };
      const touch = makeTouch({ key: `${channel}:bench-${i}-${s}`, channel, funnelId, integrationId: (i % o.funnels.length) + 1, campaignId: 1 + (i % 3), templateId: 10 * (1 + (i % 3)) + s, step: s + 1, sentAt: new Date(sentAt), ...experiment });
      touches.push({ _id: touch.key, ...touch, keys, who: keys[0] });
      if (heldOut) continue;
      mine.push(touch);
      person.sends.push({ channel, at: sentAt, templateId: touch.templateId ?? 0, variant: touch.variant ?? 'A' });
      const day = dayOf(touch.sentAt);
      let byFunnel = reminded.get(day);
      if (!byFunnel) reminded.set(day, (byFunnel = new Map()));
      const k = funnelNo.get(funnelId)!;
      let set = byFunnel.get(k);
      if (!set) byFunnel.set(k, (set = new Set()));
      const entry = remindedEntry(funnelId, keys[0]!);
      if (!contactNo.has(entry)) contactNo.set(entry, contactNo.size + 1);
      set.add(contactNo.get(entry)!);
      let campaigns = byCampaign.get(day);
      if (!campaigns) byCampaign.set(day, (campaigns = new Map()));
      const field = campaignField(k, touch.channel, touch.campaignId);
      let inCampaign = campaigns.get(field);
      if (!inCampaign) campaigns.set(field, (inCampaign = new Set()));
      inCampaign.add(contactNo.get(entry)!);
      remindedDays.push({ who: `${funnelId}\n${keys[0]}`, at: sentAt });
    }
    if (i % purchaseEvery !== 0) continue;
    // Most buy some hours to days after a reminder; a tenth buy before any (organic); a tenth are strangers.
    const kind = rand();
    const who = kind < 0.1 ? { funnelId, contactId: `stranger-${i}`, email: `stranger${i}@example.com`, phone: null } : buyer;
    const at = Math.min(o.now - 1000, kind < 0.2 && kind >= 0.1 ? start - DAY_MS : start + rand() * 12 * DAY_MS);
    if (at < today - (o.days - 1) * DAY_MS) continue;
    const amount = Math.round((5 + rand() * 195) * 100) / 100;
    const currency = rand() < 0.2 ? 'EUR' : 'USD';
    const fingerprint = purchaseFingerprint({ ...who, amount, currency })!;
    const id = `${fingerprint}|${Math.floor(at / SAME_PURCHASE_MS)}`;
    const before = who === buyer ? mine.filter((t) => t.sentAt.getTime() <= at && t.sentAt.getTime() >= at - MAX_WINDOW_DAYS * DAY_MS) : [];
    purchases.push({ _id: id, fingerprint, funnelId, buyerKeys: buyerKeys(who), amount, currency, purchasedAt: new Date(at), heardFrom: ['svc-email', 'svc-sms'], touches: before });
    const d = dayDoc(dayOf(new Date(at)));
    d.p.add(purchaseEntry({ id, funnelId, amount, currency, purchasedAt: new Date(at) }));
    for (const t of before) d.l.add(linkEntry(id, t));
    purchaseTimes.push(at);
    if (who === buyer) person.purchasedAt = at;
  }
  const touchColl = db.collection('revenue_touches');
  for (let i = 0; i < touches.length; i += 5_000) await touchColl.insertMany(touches.slice(i, i + 5_000) as never[], { ordered: false });
  const purchaseColl = db.collection('revenue_purchases');
  for (let i = 0; i < purchases.length; i += 2_000) await purchaseColl.insertMany(purchases.slice(i, i + 2_000) as never[], { ordered: false });
  const days = [
    ...[...reminded].map(([day, byFunnel]) => ({ _id: remindedDayId(day), ...Object.fromEntries([...byFunnel].map(([k, set]) => [funnelField(k), [...set]])) })),
    ...[...byCampaign].map(([day, fields]) => ({ _id: campaignDayId(day), ...Object.fromEntries([...fields].map(([f, set]) => [f, [...set]])) })),
    ...[...purchaseDays].map(([day, d]) => ({ _id: purchaseDayId(day), p: [...d.p], l: [...d.l] })),
  ];
  for (let i = 0; i < days.length; i += 20) await db.collection('revenue_days').insertMany(days.slice(i, i + 20) as never[], { ordered: false });
  await db.collection('revenue_funnels').insertMany([...funnelNo].map(([f, n]) => ({ _id: JSON.stringify(f), n, funnelId: f })) as never[]);
  const numbered = [...contactNo].map(([entry, n]) => ({ _id: entry, n }));
  for (let i = 0; i < numbered.length; i += 10_000) await db.collection('revenue_contacts').insertMany(numbered.slice(i, i + 10_000) as never[], { ordered: false });
  // The counters nextId draws from, past the numbers given here.
  await db.collection('counters').insertMany([{ _id: 'revenue_funnels', seq: funnelNo.size }, { _id: 'revenue_contacts', seq: contactNo.size }] as never[]);

  const remindedByRange: Record<number, number> = {};
  const purchasesByRange: Record<number, number> = {};
  for (const n of [7, 30, 90]) {
    const from = today - (n - 1) * DAY_MS;
    remindedByRange[n] = new Set(remindedDays.filter((r) => r.at >= from).map((r) => r.who)).size;
    purchasesByRange[n] = purchaseTimes.filter((t) => t >= from).length;
  }
  return { touches: touches.length, purchases: purchases.length, remindedByRange, purchasesByRange, people };
}
