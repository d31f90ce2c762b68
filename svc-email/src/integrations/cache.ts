import type { Connection } from 'mongoose';
import { ServiceUnavailableError, type SecretBox } from '@act/service-kit';
import { settingModel, WEBHOOK_SIGNING_KEY } from '../settings/model';
import { DEFAULT_FUNNEL_ID } from '@act/contracts/src/email-api';
import { integrationModel, type IntegrationDoc } from './model';

export interface IntegrationSnapshot {
  /** Active integrations by exact funnel id. */
  activeByFunnel: Map<string, IntegrationDoc>;
  byId: Map<number, IntegrationDoc>;
  /** By the key of each integration's own endpoint URL. */
  byKey: Map<string, IntegrationDoc>;
  /** Signing secrets opened once per snapshot, by integration id (absent: none, or sealed under another key). */
  secrets: Map<number, string>;
  fallback: IntegrationDoc | null;
  /** The "Require signed deliveries" setting. */
  requireSigned: boolean;
}

/**
 * The webhook path resolves a funnel id on every delivery; reading the integrations each time would double its
 * round trips. A snapshot is kept for `ttlMs` (another instance's change shows within that) and dropped at once
 * when this instance changes an integration.
 */
export class IntegrationCache {
  private snapshot: IntegrationSnapshot | null = null;
  private loadedAt = 0;
  private loading: Promise<IntegrationSnapshot> | null = null;
  private generation = 0;

  constructor(
    private readonly conn: Connection,
    private readonly ttlMs: number,
    private readonly box: SecretBox,
  ) {}

  async get(): Promise<IntegrationSnapshot> {
    if (this.snapshot && Date.now() - this.loadedAt < this.ttlMs) return this.snapshot;
    return (this.loading ??= this.load().finally(() => (this.loading = null)));
  }

  invalidate(): void {
    this.snapshot = null;
    this.generation++;
  }

  /** The integration a delivery belongs to: exact active funnel match, else the default integration. */
  async resolve(funnelId: string | null): Promise<IntegrationDoc> {
    const s = await this.get();
    const found = funnelId !== null ? s.activeByFunnel.get(funnelId) : undefined;
    const integration = found ?? s.fallback;
    if (!integration) throw new ServiceUnavailableError('Default integration missing; retry shortly');
    return integration;
  }

  /** Active integration with exactly this funnel id, without fallback (events from the SMS side). */
  async activeForFunnel(funnelId: string): Promise<IntegrationDoc | null> {
    return (await this.get()).activeByFunnel.get(funnelId) ?? null;
  }

  async byKey(key: string): Promise<IntegrationDoc | null> {
    return (await this.get()).byKey.get(key) ?? null;
  }

  /** The integration's signing secret, opened; null when it has none. */
  async secretOf(integration: IntegrationDoc): Promise<string | null> {
    if (!integration.webhook_secret) return null;
    // A secret that no longer opens (SECRETS_KEY changed) must not turn into "no secret": nothing verifies against it.
    return (await this.get()).secrets.get(integration.id) ?? '\u0000unopenable';
  }

  async requireSigned(): Promise<boolean> {
    return (await this.get()).requireSigned;
  }

  /**
   * Whether only verified deliveries may change this integration's contacts: it holds a secret, or the side's
   * "Require signed deliveries" is on. A fact relayed by the SMS side is held to this too.
   */
  async requiresSigning(integration: IntegrationDoc): Promise<boolean> {
    return Boolean(integration.webhook_secret) || (await this.requireSigned());
  }

  /** The integrations holding a signing secret: an unverified purchase matched by email must not reach their contacts. */
  async signedIds(): Promise<number[]> {
    const s = await this.get();
    return [...s.byId.values()].filter((d) => Boolean(d.webhook_secret)).map((d) => d.id);
  }

  async byId(id: number | null): Promise<IntegrationDoc | null> {
    if (id === null) return null;
    return (await this.get()).byId.get(id) ?? null;
  }

  private async load(): Promise<IntegrationSnapshot> {
    const gen = this.generation;
    const [docs, signing] = await Promise.all([
      integrationModel(this.conn)
        .collection.find({}, { projection: { _id: 0 } })
        .toArray(),
      settingModel(this.conn).collection.findOne({ _id: WEBHOOK_SIGNING_KEY } as never),
    ]);
    const snapshot: IntegrationSnapshot = {
      activeByFunnel: new Map(),
      byId: new Map(),
      byKey: new Map(),
      secrets: new Map(),
      fallback: null,
      requireSigned: signing?.value === true,
    };
    for (const d of docs as unknown as IntegrationDoc[]) {
      snapshot.byId.set(d.id, d);
      if (d.webhook_key) snapshot.byKey.set(d.webhook_key, d);
      const secret = d.webhook_secret ? this.box.open(d.webhook_secret) : null;
      if (secret !== null) snapshot.secrets.set(d.id, secret);
      if (d.active) snapshot.activeByFunnel.set(d.funnel_id, d);
      if (d.funnel_id === DEFAULT_FUNNEL_ID) snapshot.fallback = d;
    }
    // A change made while this read was in flight may be missing from it: serve it once, keep it no longer.
    if (gen === this.generation) {
      this.snapshot = snapshot;
      this.loadedAt = Date.now();
    }
    return snapshot;
  }
}
