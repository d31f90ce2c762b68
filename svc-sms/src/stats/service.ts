import type { Connection } from 'mongoose';
import { BadRequestError, validate } from '@act/service-kit';
import { smsStatsQuerySchema, type SmsDateRange, type SmsStatsResponse } from '@act/contracts/src/sms-api';
import { logModel } from '../logs/model';
import { contactModel } from '../contacts/model';
import { integrationModel } from '../integrations/model';
import type { ProviderConfigService } from '../provider/config';
import { computeIntegrationStats, dailySeries, type StatsLog } from './compute';
import { statsRange } from './ranges';
import type { Clock } from '../settings';

export class StatsService {
  private readonly Log;
  private readonly Contact;
  private readonly Integration;
  constructor(
    conn: Connection,
    private readonly deps: { config: ProviderConfigService; now: Clock },
  ) {
    this.Log = logModel(conn);
    this.Contact = contactModel(conn);
    this.Integration = integrationModel(conn);
  }

  async stats(query: Record<string, unknown>): Promise<SmsStatsResponse> {
    const q = await validate(smsStatsQuerySchema, {
      date_range: query.date_range || undefined,
      integration_id: query.integration_id || undefined,
    });
    const cfg = await this.deps.config.get();
    const range = statsRange(q.date_range as SmsDateRange, this.deps.now(), cfg.blackout_timezone);
    const integrations = await this.Integration.find({}, { id: 1, name: 1 })
      .sort({ id: 1 })
      .lean<{ id: number; name: string }[]>();
    const selected = q.integration_id ? integrations.filter((i) => i.id === q.integration_id) : integrations;
    if (q.integration_id && selected.length === 0) throw new BadRequestError('Integration not found');
    const ids = selected.map((i) => i.id);
    // A test delivery's messages are in no figure: its contacts are few (the flag's partial index).
    const tests = (await this.Contact.find({ test: true }, { _id: 0, id: 1 }).lean<{ id: number }[]>()).map((c) => c.id);
    const [logs, purchases] = await Promise.all([
      this.Log.find(
        { integration_id: { $in: ids }, timestamp: { $gte: range.from, $lt: range.to }, ...(tests.length ? { contact_ref: { $nin: tests } } : {}) },
        { phone: 1, contact_id: 1, integration_id: 1, status: 1, timestamp: 1 },
      ).lean<StatsLog[]>(),
      this.Contact.find(
        { integration_id: { $in: ids }, purchased_at: { $gte: range.from, $lt: range.to }, test: { $ne: true } },
        { integration_id: 1 },
      ).lean<{ integration_id: number }[]>(),
    ]);
    const stats = selected.map((i) =>
      computeIntegrationStats(
        i,
        logs.filter((l) => l.integration_id === i.id),
        purchases.filter((p) => p.integration_id === i.id).length,
      ),
    );
    return {
      stats,
      integrations: integrations.map((i) => ({ id: i.id, name: i.name })),
      daily: dailySeries(logs, range, cfg.blackout_timezone),
      date_range: q.date_range as SmsDateRange,
      timezone: cfg.blackout_timezone,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
    };
  }
}
