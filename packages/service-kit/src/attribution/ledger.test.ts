import mongoose, { type Connection } from 'mongoose';
import { DAY_MS } from '@act/contracts/src/attribution';
import { testDbName } from '../testing';
import { AttributionLedger, BUILT, type PurchaseInput, type TouchInput } from './ledger';
import { summarize } from './summary';

// Against the MongoDB stand-in that infra/scripts/test.mjs provides. Each test has its own ledger (database).
const conns: Connection[] = [];
async function ledger(name: string): Promise<AttributionLedger> {
  const conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName(`kit_ledger_${name}`), monitorCommands: true }).asPromise();
  conns.push(conn);
  const l = new AttributionLedger(conn);
  await l.init();
  return l;
}
afterAll(async () => {
  for (const c of conns) await c.dropDatabase();
  await Promise.all(conns.map((c) => c.close()));
});

const base = Date.parse('2026-03-01T00:00:00Z');
const from = new Date(base);
const until = new Date(base + 30 * DAY_MS);

/** A month of reminders and purchases: several funnels, both channels, two currencies, organic and unknown buyers. */
function events(): { touches: TouchInput[]; purchases: PurchaseInput[] } {
  const touches: TouchInput[] = [];
  const purchases: PurchaseInput[] = [];
  for (let c = 0; c < 40; c++) {
    const funnelId = `f${c % 3}`;
    const who = { funnelId, contactId: `c${c}`, email: `c${c}@example.com`, phone: null };
    for (let s = 0; s < 1 + (c % 4); s++)
      touches.push({ ...who, key: `${s % 2 ? 'sms' : 'email'}:${c}-${s}`, channel: s % 2 ? 'sms' : 'email', integrationId: c % 3, campaignId: 10 + (c % 2), templateId: 100 + s, step: s + 1, sentAt: new Date(base + (c % 20) * DAY_MS + s * 2 * DAY_MS + c * 60_000) });
    if (c % 3 !== 2)
      purchases.push({ ...who, amount: 10 + c, currency: c % 5 === 0 ? 'EUR' : 'USD', purchasedAt: new Date(base + (c % 20) * DAY_MS + (c % 7) * DAY_MS + c * 60_000 + 1), source: 'svc-email', eventId: `p${c}` });
  }
  // Organic: a purchase before any reminder, and one by someone never reminded.
  purchases.push({ funnelId: 'f0', contactId: 'c3', email: null, phone: null, amount: 7, currency: 'USD', purchasedAt: new Date(base + 1000), source: 'svc-sms', eventId: 'early' });
  purchases.push({ funnelId: 'f1', contactId: 'stranger', email: null, phone: null, amount: 5, currency: 'USD', purchasedAt: new Date(base + 5 * DAY_MS), source: 'svc-sms', eventId: 'stranger' });
  return { touches, purchases };
}

async function summaryOf(l: AttributionLedger, model: 'last' | 'first', windowDays: number, f = from, u = until) {
  const [purchases, reminded] = await Promise.all([l.purchasesIn(f, u), l.remindedIn(f, u)]);
  const s = summarize({ from: f, until: u, model, windowDays, purchases, reminded, integrations: new Map(), funnel: { contacts: 0, reminded: 0, clicked: null, purchased: 0 } });
  // The series' order is the days'; the rest is sorted by figures and keys, so equal summaries are deep-equal.
  return s;
}

/** Distinct contacts (per funnel, as "reminded" counts them) reminded per campaign, straight from the touch records. */
async function campaignsFromRecords(l: AttributionLedger, f: Date, u: Date, funnelId?: string) {
  const rows = await l.touches
    .aggregate<{ _id: { c: string; k: number | null }; n: number }>([
      { $match: { sentAt: { $gte: f, $lt: u }, ...(funnelId !== undefined ? { funnelId } : {}) } },
      { $group: { _id: { c: '$channel', k: '$campaignId', f: '$funnelId', w: '$who' } } },
      { $group: { _id: { c: '$_id.c', k: '$_id.k' }, n: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((r) => [`${r._id.c}|${r._id.k ?? null}`, r.n]));
}

/** A deterministic shuffle (the test must fail the same way each run). */
function shuffle<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('the ledger day documents', () => {
  it('give the same figures whatever the arrival order, and every event heard twice (in parallel too) changes nothing', async () => {
    const { touches, purchases } = events();
    const inOrder = await ledger('order');
    for (const t of touches) await inOrder.recordTouch(t);
    for (const p of purchases) await inOrder.recordPurchase(p);

    // Purchases first, then touches, shuffled, each twice, the second copies side by side with the first ones.
    const mixed = await ledger('mixed');
    const all = shuffle([...purchases.map((p) => ({ p })), ...touches.map((t) => ({ t }))], 7);
    for (const chunk of [all.slice(0, 40), all.slice(40)])
      await Promise.all([...chunk, ...shuffle(chunk, 3)].map((e) => ('p' in e ? mixed.recordPurchase(e.p) : mixed.recordTouch(e.t))));
    // The same purchase reported by the other side minutes later (both webhooks): one purchase.
    await mixed.recordPurchase({ ...purchases[0]!, source: 'svc-sms', eventId: 'relay', purchasedAt: new Date(purchases[0]!.purchasedAt.getTime() + 120_000) });

    // The day documents are the same sets, each entry once.
    const sets = async (l: AttributionLedger) => {
      // Contacts and funnels by name rather than number (numbers depend on who was seen first).
      const contact = new Map((await l.contacts.find({}).toArray()).map((c) => [c.n, c._id]));
      const funnel = new Map((await l.funnels.find({ _id: { $ne: 'epoch' } }).toArray()).map((f) => [`f${f.n}`, f.funnelId]));
      const named = (k: string) => {
        // `f<k>` (reminded per funnel) and `<k>|channel|campaign` (per campaign) name a funnel by number.
        const cut = k.indexOf('|');
        if (funnel.has(k)) return `funnel ${funnel.get(k)}`;
        if (cut > 0 && funnel.has(`f${k.slice(0, cut)}`)) return `funnel ${funnel.get(`f${k.slice(0, cut)}`)}${k.slice(cut)}`;
        return null;
      };
      return (await l.days.find({ _id: { $nin: ['built', BUILT] } }).sort({ _id: 1 }).toArray()).map(({ _id, ...fields }) => ({
        _id,
        sets: Object.entries(fields as Record<string, (string | number)[]>)
          .map(([k, xs]) => {
            expect(new Set(xs).size).toBe(xs.length);
            const name = named(k);
            return name !== null ? [name, xs.map((n) => contact.get(n as number)).sort()] : [k, [...xs].sort()];
          })
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      }));
    };
    expect(await sets(mixed)).toEqual(await sets(inOrder));
    for (const [model, windowDays] of [['last', 7], ['first', 7], ['last', 3], ['first', 30]] as const) {
      const a = await summaryOf(inOrder, model, windowDays);
      expect(await summaryOf(mixed, model, windowDays)).toEqual(a);
    }
    const s = await summaryOf(mixed, 'last', 7);
    expect(s.totals.purchases).toBe(purchases.length);
    expect(s.totals.recovered).toBeGreaterThan(0);
    expect(s.totals.organic).toBeGreaterThanOrEqual(2);
    expect(s.totals.revenue.map((r) => r.currency)).toEqual(['EUR', 'USD']);
    // 40 contacts reminded, each counted once however many reminders and days.
    expect([...(await mixed.remindedIn(from, until)).values()].reduce((a, b) => a + b, 0)).toBe(40);
  });

  it('count as the records say: distinct contacts reminded in the range, credit by the rule from the touches', async () => {
    const { touches, purchases } = events();
    const l = await ledger('truth');
    await Promise.all([...touches.map((t) => l.recordTouch(t)), ...purchases.map((p) => l.recordPurchase(p))]);
    for (const [f, u] of [
      [from, until],
      [new Date(base + 5 * DAY_MS), new Date(base + 12 * DAY_MS)],
    ] as const) {
      // The old derivation, straight from the records: a $group over the touches, the purchases with their touches.
      const rows = await l.touches
        .aggregate<{ _id: string | null; n: number }>([{ $match: { sentAt: { $gte: f, $lt: u } } }, { $group: { _id: { f: '$funnelId', w: '$who' } } }, { $group: { _id: '$_id.f', n: { $sum: 1 } } }])
        .toArray();
      expect(await l.remindedIn(f, u)).toEqual(new Map(rows.map((r) => [r._id, r.n])));
      expect(await l.campaignRemindedIn(f, u)).toEqual(await campaignsFromRecords(l, f, u));
      const records = await l.purchases.find({ purchasedAt: { $gte: f, $lt: u } }).toArray();
      const fromRecords = summarize({ from: f, until: u, model: 'last', windowDays: 7, purchases: records, reminded: new Map(), integrations: new Map(), funnel: { contacts: 0, reminded: 0, clicked: null, purchased: 0 } });
      const fromDays = summarize({ from: f, until: u, model: 'last', windowDays: 7, purchases: await l.purchasesIn(f, u), reminded: new Map(), integrations: new Map(), funnel: { contacts: 0, reminded: 0, clicked: null, purchased: 0 } });
      expect(fromDays).toEqual(fromRecords);
    }
    // One funnel only.
    expect(await l.remindedIn(from, until, 'f1')).toEqual(new Map([['f1', 13]]));
    expect(await l.campaignRemindedIn(from, until, 'f1')).toEqual(await campaignsFromRecords(l, from, until, 'f1'));
    expect((await l.purchasesIn(from, until, 'f1')).every((p) => p.funnelId === 'f1')).toBe(true);
  });

  it('are built from the records of a ledger kept before they existed, and cleared with it', async () => {
    const { touches, purchases } = events();
    const l = await ledger('rebuild');
    for (const t of touches) await l.recordTouch(t);
    for (const p of purchases) await l.recordPurchase(p);
    const before = await summaryOf(l, 'last', 7);
    await l.days.deleteMany({});
    expect((await summaryOf(l, 'last', 7)).totals.purchases).toBe(0);
    await l.init();
    await l.rebuilt;
    expect(l.rebuildError).toBeNull();
    expect(await summaryOf(l, 'last', 7)).toEqual(before);
    // Built once: the mark keeps the next start from building again.
    expect(await l.days.findOne({ _id: BUILT })).not.toBeNull();
    expect(await l.clear()).toEqual({ touches: touches.length, purchases: purchases.length });
    expect(await l.days.countDocuments({ _id: { $ne: BUILT } })).toBe(0);
    expect((await summaryOf(l, 'last', 7)).totals.purchases).toBe(0);
  });

  it('take a burst of touches in batches (doubled and shuffled), as the records say', async () => {
    const { touches } = events();
    const l = await ledger('batch');
    // As the consumer hands over a gathered group: all at once, every send twice, in any order.
    await Promise.all(shuffle([...touches, ...touches], 11).map((t) => l.recordTouch(t)));
    expect(l.touchBatches.touches).toBe(touches.length);
    expect(l.touchBatches.batches).toBeLessThanOrEqual(3);
    expect(await l.touches.countDocuments({})).toBe(touches.length);
    const rows = await l.touches
      .aggregate<{ _id: string | null; n: number }>([{ $group: { _id: { f: '$funnelId', w: '$who' } } }, { $group: { _id: '$_id.f', n: { $sum: 1 } } }])
      .toArray();
    expect(await l.remindedIn(from, until)).toEqual(new Map(rows.map((r) => [r._id, r.n])));
    expect(await l.campaignRemindedIn(from, until)).toEqual(await campaignsFromRecords(l, from, until));
    // A batch of touches after their purchases links them all, as one by one (the derivation from the records).
    const { purchases } = events();
    const late = await ledger('batch_late');
    for (const p of purchases) await late.recordPurchase(p);
    await Promise.all(shuffle(touches, 5).map((t) => late.recordTouch(t)));
    const fromRecords = summarize({ from, until, model: 'last', windowDays: 7, purchases: await late.purchases.find({}).toArray(), reminded: new Map(), integrations: new Map(), funnel: { contacts: 0, reminded: 0, clicked: null, purchased: 0 } });
    const fromDays = summarize({ from, until, model: 'last', windowDays: 7, purchases: await late.purchasesIn(from, until), reminded: new Map(), integrations: new Map(), funnel: { contacts: 0, reminded: 0, clicked: null, purchased: 0 } });
    expect(fromDays).toEqual(fromRecords);
    expect(fromDays.totals.recovered).toBeGreaterThan(0);
  });

  it('forget the numbers they remember when the ledger is cleared, by this instance or another', async () => {
    const { touches } = events();
    const a = await ledger('cache');
    // A second instance of the service on the same database: its own memory of the numbers.
    const b = new AttributionLedger(conns.at(-1)!);
    await b.init();
    // Reads of the contact numbers (revenue_contacts) by either instance.
    let contactReads = 0;
    conns.at(-1)!.getClient().on('commandStarted', (e) => {
      if (e.commandName === 'find' && (e.command as { find?: string }).find === 'revenue_contacts') contactReads++;
    });
    const some = touches.slice(0, 30);
    await Promise.all(some.map((t) => b.recordTouch(t)));
    expect(contactReads).toBe(1); // one `$in` read for the whole batch
    // Remembered: more sends to the same contacts read no contact number.
    await Promise.all(some.map((t) => b.recordTouch({ ...t, key: `more:${t.key}` })));
    expect(contactReads).toBe(1);
    const expected = await a.remindedIn(from, until);
    expect([...expected.values()].reduce((x, y) => x + y, 0)).toBeGreaterThan(0);
    // Cleared by the other instance: this one must not write the numbers it remembers (they name nothing now).
    await a.clear();
    expect(await a.remindedIn(from, until)).toEqual(new Map());
    await Promise.all(some.map((t) => b.recordTouch({ ...t, key: `again:${t.key}` })));
    expect(contactReads).toBeGreaterThan(1);
    expect(await a.remindedIn(from, until)).toEqual(expected);
    expect(await a.campaignRemindedIn(from, until)).toEqual(await campaignsFromRecords(a, from, until));
    // And cleared by itself (the instance that answered Clear All Test Data).
    await b.clear();
    await Promise.all(some.map((t) => b.recordTouch({ ...t, key: `third:${t.key}` })));
    expect(await a.remindedIn(from, until)).toEqual(expected);
  });
});
