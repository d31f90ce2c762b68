import type { Connection } from 'mongoose';
import type { SecretBox } from '@act/service-kit';
import { integrationModel, type IntegrationDoc } from './model';
import type { WebhookSigningSettings } from '../webhook-signing/settings';

/** Per-integration URLs, opened secrets and the require-signed setting, read together and kept like the funnel map. */
interface SigningSnapshot {
  byKey: Map<string, IntegrationDoc>;
  secrets: Map<number, string>;
  requireSigned: boolean;
  /** Funnel ids of the integrations (active or paused) holding a secret. */
  signedFunnels: Set<string>;
}

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
  private signing: SigningSnapshot | null = null;
  private signingAt = 0;
  private signingLoad: Promise<SigningSnapshot> | null = null;

  constructor(
    private readonly conn: Connection,
    private readonly ttlMs: number,
    private readonly box: SecretBox,
    private readonly signingSettings: WebhookSigningSettings,
  ) {}

  /** The integration of `/api/sms/webhook/i/<key>`, active or not. */
  async byKey(key: string): Promise<IntegrationDoc | null> {
    return (await this.signingSnapshot()).byKey.get(key) ?? null;
  }

  /** The integration's signing secret, opened; null when it has none. */
  async secretOf(integration: IntegrationDoc): Promise<string | null> {
    if (!integration.webhook_secret) return null;
    // A secret that no longer opens (SECRETS_KEY changed) must not turn into "no secret": nothing verifies against it.
    return (await this.signingSnapshot()).secrets.get(integration.id) ?? '\u0000unopenable';
  }

  async requireSigned(): Promise<boolean> {
    return (await this.signingSnapshot()).requireSigned;
  }

  /**
   * Whether only verified deliveries may change this integration's contacts: it holds a secret, or the side's
   * "Require signed deliveries" is on. Facts relayed by the email side are held to this too.
   */
  async requiresSigning(integration: IntegrationDoc): Promise<boolean> {
    return Boolean(integration.webhook_secret) || (await this.requireSigned());
  }

  /**
   * The same for a purchase relayed by the email side, which matches contacts of every integration of its funnel
   * (or, without a funnel, by phone anywhere): signed when any integration it can reach holds a secret.
   */
  async funnelRequiresSigning(funnelId: string | null): Promise<boolean> {
    const snap = await this.signingSnapshot();
    if (snap.requireSigned) return true;
    return funnelId === null ? snap.signedFunnels.size > 0 : snap.signedFunnels.has(funnelId);
  }

  private async signingSnapshot(): Promise<SigningSnapshot> {
    if (this.signing && this.ttlMs > 0 && Date.now() - this.signingAt < this.ttlMs) return this.signing;
    return (this.signingLoad ??= this.loadSigning().finally(() => (this.signingLoad = null)));
  }

  private async loadSigning(): Promise<SigningSnapshot> {
    const gen = this.generation;
    const [docs, requireSigned] = await Promise.all([
      integrationModel(this.conn).find({}).lean<IntegrationDoc[]>(),
      this.signingSettings.requireSigned(),
    ]);
    const snap: SigningSnapshot = { byKey: new Map(), secrets: new Map(), requireSigned, signedFunnels: new Set() };
    for (const d of docs) {
      if (d.webhook_key) snap.byKey.set(d.webhook_key, d);
      if (d.webhook_secret) snap.signedFunnels.add(d.funnel_id);
      const secret = d.webhook_secret ? this.box.open(d.webhook_secret) : null;
      if (secret !== null) snap.secrets.set(d.id, secret);
    }
    if (gen === this.generation) {
      this.signing = snap;
      this.signingAt = Date.now();
    }
    return snap;
  }

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
    this.signing = null;
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
