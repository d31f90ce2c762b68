import mongoose, { type Connection } from 'mongoose';
import { DAY_MS } from '@act/contracts/src/attribution';
import { testDbName } from '../testing';
import { AttributionLedger, type TouchInput } from '../attribution/ledger';
import { ExperimentSettings, experimentOf } from './settings';
import { ExperimentsService } from './service';
import { campaignResults, resultsCsv } from './results';

// Against the MongoDB stand-in that infra/scripts/test.mjs provides.
let conn: Connection;
let ledger: AttributionLedger;
beforeAll(async () => {
  conn = await mongoose.createConnection(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017', { dbName: testDbName('kit_experiment_results') }).asPromise();
  ledger = new AttributionLedger(conn);
  await ledger.init();
});
afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

const base = Date.parse('2026-03-01T00:00:00Z');
const who = (c: string) => ({ funnelId: 'f', contactId: c, email: `${c}@example.com`, phone: null });
const touch = (c: string, extra: Partial<TouchInput>, day = 0): TouchInput => ({
  ...who(c),
  key: `sms:${c}-${day}`,
  channel: 'sms',
  integrationId: 1,
  campaignId: 7,
  templateId: 70,
  step: 1,
  sentAt: new Date(base + day * DAY_MS),
  ...extra,
});
const purchase = (c: string, day: number, amount: number, currency = 'USD') => ({
  ...who(c),
  amount,
  currency,
  purchasedAt: new Date(base + day * DAY_MS),
  source: 'svc-sms',
  eventId: `${c}-${day}-${amount}`,
});

it('counts each group per contact from the ledger: variants, the holdout by its marks; marks are never reminded nor credited', async () => {
  for (const c of ['a1', 'a2', 'a3']) await ledger.recordTouch(touch(c, { variant: 'A' }));
  for (const c of ['b1', 'b2', 'b3']) await ledger.recordTouch(touch(c, { variant: 'B' }));
  for (const c of ['h1', 'h2']) await ledger.recordTouch(touch(c, { holdout: true }));
  // A simulated reminder reached nobody: in no group.
  await ledger.recordTouch(touch('s1', { variant: 'A', simulated: true }));
  await ledger.recordPurchase(purchase('a1', 2, 50));
  await ledger.recordPurchase(purchase('a2', 3, 20, 'EUR'));
  // Past the 7-day window: not this campaign's.
  await ledger.recordPurchase(purchase('b1', 9, 80));
  await ledger.recordPurchase(purchase('b2', 1, 40));
  await ledger.recordPurchase(purchase('h1', 1, 30));

  // The summary's figures: six reminded, the holdout's purchase organic (never credited to its mark).
  const until = new Date(base + 30 * DAY_MS);
  expect([...(await ledger.remindedIn(new Date(base), until)).values()]).toEqual([6]);
  const held = (await ledger.purchasesIn(new Date(base), until)).find((p) => p.amount === 30)!;
  expect(held.touches).toEqual([]);

  const experiment = experimentOf(7, {
    holdout_percent: 20,
    auto_winner: false,
    winner_min_recipients: 500,
    steps: [{ template_id: 70, variants: ['A', 'B'].map((id) => ({ id, share: 50, subject: null, content: null, delay: null, incentive: null })) }],
    winners: [],
  });
  const { results } = await campaignResults({ ledger, channel: 'sms', experiment, windowDays: 7 });
  expect(results.currency).toBe('USD');
  const pick = (g: { id: string; recipients: number; purchasers: number; revenue: number }) => [g.id, g.recipients, g.purchasers, g.revenue];
  expect(pick(results.reminded)).toEqual(['reminded', 6, 3, 90]);
  expect(pick(results.holdout)).toEqual(['holdout', 2, 1, 30]);
  // a2 bought in EUR: a purchaser, no revenue in the campaign's currency.
  expect(results.steps[0]!.variants.map(pick)).toEqual([
    ['A', 3, 2, 50],
    ['B', 3, 1, 40],
  ]);
  expect(results.incremental).toEqual({ status: 'not_enough_data', reminded_more_needed: 94, holdout_more_needed: 98 });
  // The other channel's campaign 7 is another campaign.
  expect((await campaignResults({ ledger, channel: 'email', experiment, windowDays: 7 })).results.reminded.recipients).toBe(0);
  expect(resultsCsv(results).split('\n').slice(1, 3)).toEqual([
    '70,1,A,3,,,2,50,USD,,,,,,,97,',
    '70,1,B,3,,,1,40,USD,,,,,,,97,',
  ]);
});

it('the automatic winner is decided by the periodic look, kept once with its numbers and time, and a page reads it', async () => {
  const campaigns = conn.collection<{ id: number; experiment?: unknown }>('exp_campaigns');
  const settings = new ExperimentSettings(campaigns as never, async () => [90]);
  await campaigns.insertOne({ id: 9 });
  await settings.put(9, {
    holdout_percent: 0,
    auto_winner: true,
    winner_min_recipients: 50,
    steps: [{ template_id: 90, variants: ['A', 'B'].map((id) => ({ id, share: 50 })) }],
  });
  // 60 contacts each; A converts 5 of them, B 30 (same order value): B is best beyond doubt.
  for (let i = 0; i < 120; i++) {
    const c = `w${i}`;
    await ledger.recordTouch({ ...touch(c, { variant: i < 60 ? 'A' : 'B', campaignId: 9, templateId: 90 }), key: `sms:${c}` });
    if ((i < 60 && i % 12 === 0) || (i >= 60 && i % 2 === 0)) await ledger.recordPurchase(purchase(c, 1, 40));
  }
  const service = new ExperimentsService({ channel: 'sms', settings, ledger, windowDays: async () => 7 });
  expect((await settings.undecided()).map((e) => e.campaign_id)).toEqual([9]);
  const checks = service.startWinnerChecks({ everyMs: 50, logger: { warn: () => undefined } });
  try {
    for (let i = 0; i < 100 && (await settings.get(9)).winners.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  } finally {
    checks.stop();
  }
  const { winners } = await settings.get(9);
  expect(winners.map((w) => [w.template_id, w.variant, w.based_on.map((b) => [b.id, b.recipients, b.purchasers, b.revenue])])).toEqual([
    [90, 'B', [['A', 60, 5, 200], ['B', 60, 30, 1200]]],
  ]);
  expect(winners[0]!.probabilities.B).toBeGreaterThanOrEqual(0.95);
  expect(Date.parse(winners[0]!.decided_at)).toBeGreaterThan(Date.now() - 60_000);
  expect(await settings.undecided()).toEqual([]);
  // Kept once: a later decision changes nothing; the results show the kept one.
  await settings.keepWinner(9, { ...winners[0]!, variant: 'A', decided_at: new Date().toISOString() });
  expect((await settings.get(9)).winners).toEqual(winners);
  service.forget(9);
  expect((await service.results(9)).steps[0]!.winner).toEqual(winners[0]);
});

it('reuses a campaign’s results within the fresh period, but not once the click source they were counted with changed', async () => {
  const campaigns = conn.collection<{ id: number; experiment?: unknown }>('exp_campaigns');
  const settings = new ExperimentSettings(campaigns as never, async () => [110]);
  await campaigns.insertOne({ id: 11 });
  await settings.put(11, { holdout_percent: 0, auto_winner: false, winner_min_recipients: 50, steps: [{ template_id: 110, variants: ['A', 'B'].map((id) => ({ id, share: 50 })) }] });
  for (let i = 0; i < 4; i++) await ledger.recordTouch({ ...touch(`k${i}`, { variant: i < 2 ? 'A' : 'B', campaignId: 11, templateId: 110 }), key: `sms:k${i}` });
  // The channel's switch and the clicks on our links, as the SMS side reads them.
  let ourLink = false;
  let clicks = 0;
  const engagement = async () =>
    new Map(['A', 'B'].map((v) => [`110|${v}`, { delivered: 2, clicked: ourLink ? (v === 'A' ? clicks : 0) : null }]));
  const service = new ExperimentsService({ channel: 'sms', settings, ledger, windowDays: async () => 7, engagement, basis: async () => String(ourLink) });
  const clicked = async () => (await service.results(11)).steps[0]!.variants.map((g) => g.clicked);
  expect(await clicked()).toEqual([null, null]);
  ourLink = true;
  clicks = 1;
  // Switched on: counted again at once, not the results counted while it was off.
  expect(await clicked()).toEqual([1, 0]);
  // Another click within the fresh period: the results computed a moment ago are reused.
  clicks = 2;
  expect(await clicked()).toEqual([1, 0]);
  ourLink = false;
  expect(await clicked()).toEqual([null, null]);
});
