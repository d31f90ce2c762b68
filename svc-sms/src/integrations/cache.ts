import type { Connection } from 'mongoose';
import { integrationModel, type IntegrationDoc } from './model';

/**
 * The webhook path (and the email side's contact events) look up the active integration of a funnel on every
 * delivery; reading it each time added a round trip to every webhook, in front of the contact write. A snapshot of
 * the active integrations is kept for `ttlMs` (another instance's change shows within that) and dropped at once when
 * this instance changes an integration.
 */
export class IntegrationCache {
  private byFunnel: Map<string, IntegrationDoc> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, IntegrationDoc>> | null = null;
  private generation = 0;

  constructor(
    private readonly conn: Connection,
    private readonly ttlMs: number,
  ) {}

  /** The ACTIVE integration whose funnel_id equals this one exactly (the lowest id when several), else null. */
  async activeForFunnel(funnelId: string): Promise<IntegrationDoc | null> {
    if (this.ttlMs <= 0) {
      return integrationModel(this.conn)
        .findOne({ funnel_id: funnelId, active: true })
        .sort({ id: 1 })
        .lean<IntegrationDoc>();
    }
    let map = this.byFunnel;
    if (!map || Date.now() - this.loadedAt >= this.ttlMs)
      map = await (this.loading ??= this.load().finally(() => (this.loading = null)));
    return map.get(funnelId) ?? null;
  }

  invalidate(): void {
    this.byFunnel = null;
    this.generation++;
  }

  private async load(): Promise<Map<string, IntegrationDoc>> {
    const gen = this.generation;
    const docs = await integrationModel(this.conn).find({ active: true }).sort({ id: 1 }).lean<IntegrationDoc[]>();
    const map = new Map<string, IntegrationDoc>();
    for (const d of docs) if (!map.has(d.funnel_id)) map.set(d.funnel_id, d);
    // A change made while this read was in flight invalidated it: use the result once, but do not keep it.
    if (gen === this.generation) {
      this.byFunnel = map;
      this.loadedAt = Date.now();
    }
    return map;
  }
}
