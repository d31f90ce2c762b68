import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { DEFAULT_WINDOW_DAYS, MAX_WINDOW_DAYS, type AttributionModel, type Channel } from '@act/contracts/src/attribution';
import {
  revenueRange,
  type RevenueFunnel,
  type RevenuePurchasesPage,
  type RevenuePurchasesQueryInput,
  type RevenueQueryInput,
  type RevenueSummary,
} from '@act/contracts/src/revenue-api';
import { BadRequestError, NotFoundError } from '../errors';
import type { AttributionLedger } from './ledger';
import { summarize } from './summary';
import { buyerOf, decodeCursor, encodeCursor, purchaseRow, recentCredited } from './recent';

/** A buyer as the ledger names them: the sender's contact id (with its funnel), email and phone (digits). */
export interface BuyerRef {
  funnelId: string | null;
  contactId: string | null;
  email: string | null;
  phone: string | null;
}

/** What only the service itself knows: its integrations, its contacts and what its channel really sent them. */
export interface RevenueSide {
  /** The funnel id of one of this side's integrations; undefined when there is no such integration. */
  funnelOf(integrationId: number): Promise<string | null | undefined>;
  integrations(): Promise<Map<string, { id: number; name: string }>>;
  /** The cohort funnel of the contacts that came in during the range (see RevenueFunnel): monotone by construction. */
  funnel(from: Date, until: Date, integrationId?: number): Promise<RevenueFunnel>;
  /** Figures limited to this channel (SMS Statistics counts SMS data only); unset: both channels. */
  channel?: Channel;
  /** Whether this side's reminders are only logged now (live sending off). */
  sendingSimulated?(): Promise<boolean>;
  /** This side's contact number (its contact page) for each buyer, in order; null where it holds none. */
  contactNumbers?(buyers: BuyerRef[]): Promise<(number | null)[]>;
}

interface SettingDoc {
  _id: string;
  window_days: number;
}

/** Recovered revenue for one side, over its ledger (no Koa here). */
export class RevenueService {
  private readonly settings: Collection<SettingDoc>;

  constructor(
    conn: Connection,
    private readonly ledger: AttributionLedger,
    private readonly side: RevenueSide,
  ) {
    this.settings = conn.collection<SettingDoc>('revenue_settings');
  }

  async windowDays(): Promise<number> {
    const doc = await this.settings.findOne({ _id: 'attribution' });
    return doc?.window_days ?? DEFAULT_WINDOW_DAYS;
  }

  async setWindowDays(days: number): Promise<number> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_WINDOW_DAYS) throw new BadRequestError(`window_days must be between 1 and ${MAX_WINDOW_DAYS}`);
    await this.settings.updateOne({ _id: 'attribution' }, { $set: { window_days: days } }, { upsert: true });
    return days;
  }

  async summary(q: RevenueQueryInput, now = new Date()): Promise<RevenueSummary> {
    const range = revenueRange(q, now);
    if ('error' in range) throw new BadRequestError(range.error);
    let funnelId: string | null | undefined;
    if (q.integration_id !== undefined) {
      funnelId = await this.side.funnelOf(q.integration_id);
      if (funnelId === undefined) throw new NotFoundError('Integration not found');
    }
    const { from, until } = range;
    const { channel } = this.side;
    const [purchases, reminded, campaignReminded, integrations, funnel, sendingSimulated, windowDays] = await Promise.all([
      this.ledger.purchasesIn(from, until, funnelId),
      channel ? this.ledger.channelRemindedIn(from, until, channel, funnelId) : this.ledger.remindedIn(from, until, funnelId),
      this.ledger.campaignRemindedIn(from, until, funnelId),
      this.side.integrations(),
      this.side.funnel(from, until, q.integration_id),
      this.side.sendingSimulated?.() ?? Promise.resolve(false),
      q.window_days !== undefined ? Promise.resolve(q.window_days) : this.windowDays(),
    ]);
    return summarize({ from, until, model: q.model as AttributionModel, windowDays, purchases, integrations, reminded, campaignReminded, funnel, channel, sendingSimulated });
  }

  /** The newest purchases credited to a reminder, a page at a time, with their contact and integration on this side. */
  async recentPurchases(q: RevenuePurchasesQueryInput): Promise<RevenuePurchasesPage> {
    let funnelId: string | null | undefined;
    if (q.integration_id !== undefined) {
      funnelId = await this.side.funnelOf(q.integration_id);
      if (funnelId === undefined) throw new NotFoundError('Integration not found');
    }
    const before = q.before ? decodeCursor(q.before) : null;
    const windowDays = q.window_days ?? (await this.windowDays());
    const [{ rows, next }, integrations] = await Promise.all([
      recentCredited(this.ledger.purchases, { funnelId, before, limit: q.limit, windowDays, model: q.model as AttributionModel, channel: this.side.channel }),
      this.side.integrations(),
    ]);
    const buyers = rows.map(({ doc }) => ({ funnelId: doc.funnelId, ...buyerOf(doc.buyerKeys, doc.funnelId) }));
    const numbers = rows.length && this.side.contactNumbers ? await this.side.contactNumbers(buyers) : rows.map(() => null);
    return {
      purchases: rows.map((r, i) => purchaseRow(r, { contactNumber: numbers[i] ?? null, integration: integrations.get(r.doc.funnelId as string) ?? null })),
      next: next ? encodeCursor(next) : null,
    };
  }
}
