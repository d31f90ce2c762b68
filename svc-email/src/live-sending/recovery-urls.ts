import mongoose, { type Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { Context, Next } from 'koa';
import { createBatcher, type Logger } from '@act/service-kit';

/** The checkout link the funnel sent for a contact (its {{recoveryUrl}}), by (integration, funnel contact id). */
export interface RecoveryUrlDoc {
  integration_id: number;
  contact_id: string;
  url: string;
  updated_at: Date;
}

const schema = new mongoose.Schema<RecoveryUrlDoc>(
  {
    integration_id: { type: Number, required: true },
    contact_id: { type: String, required: true },
    url: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'contact_recovery_urls' },
);
schema.index({ integration_id: 1, contact_id: 1 }, { unique: true });

export function recoveryUrlModel(conn: Connection) {
  return (
    (conn.models.ContactRecoveryUrl as mongoose.Model<RecoveryUrlDoc>) ??
    conn.model<RecoveryUrlDoc>('ContactRecoveryUrl', schema)
  );
}

/** Field names funnels use for the link back to an abandoned checkout, most specific first. */
const URL_FIELDS = ['recovery_url', 'checkout_url', 'cart_url', 'abandoned_checkout_url', 'cart_recovery_url'];

function httpUrl(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 2048) return null;
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** The recovery link of a webhook body (`contact.<field>` of the new format, else top-level), http(s) only. */
export function extractRecoveryUrl(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const contact =
    b.contact && typeof b.contact === 'object' && !Array.isArray(b.contact)
      ? (b.contact as Record<string, unknown>)
      : {};
  for (const src of [contact, b]) {
    for (const f of URL_FIELDS) {
      const url = httpUrl(src[f]);
      if (url) return url;
    }
  }
  return null;
}

export class RecoveryUrls {
  readonly coll: Collection<RecoveryUrlDoc>;

  /**
   * @param deploymentFallback RECOVERY_URL_FALLBACK: a link for every integration without one of its own (unset:
   *   none, and a step needing a link for a contact without one is skipped)
   * @param integrationFallback an integration's own fallback link (its checkout_fallback_url)
   * @param sampleLink what a test email's {{recoveryUrl}} shows (PUBLIC_URL)
   */
  constructor(
    conn: Connection,
    private readonly deploymentFallback: string | null,
    private readonly integrationFallback: (integrationId: number) => Promise<string | null>,
    private readonly sampleLink: string,
  ) {
    this.coll = recoveryUrlModel(conn).collection as unknown as Collection<RecoveryUrlDoc>;
  }

  async remember(integrationId: number, contactId: string, url: string): Promise<void> {
    await this.rememberBatch({ integrationId, contactId, url, at: new Date() });
  }

  /**
   * Every link delivery holds its answer for this write: concurrent ones share one bulkWrite (in order, so of one
   * contact's two links in a batch the later stays), a round trip each was the link senders' largest intake cost.
   */
  private readonly rememberBatch = createBatcher(async (items: { integrationId: number; contactId: string; url: string; at: Date }[]) => {
    await this.coll.bulkWrite(
      items.map((it) => ({
        updateOne: {
          filter: { integration_id: it.integrationId, contact_id: it.contactId },
          update: { $set: { url: it.url, updated_at: it.at } },
          upsert: true,
        },
      })),
      { ordered: true },
    );
    return items.map(() => undefined);
  });

  /**
   * The contact's checkout link: the one its funnel sent, else its integration's fallback link, else the
   * deployment's; null when there is none (never an empty or made-up link).
   */
  async forContact(integrationId: number | null, contactId: string): Promise<string | null> {
    if (integrationId !== null) {
      const doc = await this.coll.findOne(
        { integration_id: integrationId, contact_id: contactId },
        { projection: { _id: 0, url: 1 } },
      );
      if (doc) return doc.url;
    }
    return this.fallbackFor(integrationId);
  }

  /** The link for a contact whose own one no longer works: its integration's fallback, else the deployment's. */
  async fallbackFor(integrationId: number | null): Promise<string | null> {
    if (integrationId !== null) {
      const own = await this.integrationFallback(integrationId);
      if (own) return own;
    }
    return this.deploymentFallback;
  }

  /** The link a test email shows for {{recoveryUrl}}. */
  sample(): string {
    return this.deploymentFallback ?? this.sampleLink;
  }

  /**
   * Watches the funnel webhook (POST /api/webhook and /api/webhook/i/<key>; the webhook feature's route, which this
   * leaves as it is): after a contact delivery answered 200 with the contact's integration and funnel id, the
   * checkout link is kept for that contact. A sender adapter's link arrives in `ctx.state.checkoutUrl`; the spec's
   * formats carry it in the body.
   */
  middleware(logger: Logger) {
    return async (ctx: Context, next: Next) => {
      await next();
      if (ctx.method !== 'POST' || ctx.status !== 200) return;
      if (ctx.path !== '/api/webhook' && !ctx.path.startsWith('/api/webhook/i/')) return;
      const hint = ctx.state.checkoutUrl as { integrationId: number; contactId: string; url: string } | undefined;
      const answer = ctx.body as { contact_id?: unknown; integration_id?: unknown; matched?: unknown } | undefined;
      let target: { integrationId: number; contactId: string; url: string } | null = hint ?? null;
      if (
        !target &&
        answer &&
        typeof answer.contact_id === 'string' &&
        typeof answer.integration_id === 'number' &&
        answer.matched === undefined
      ) {
        const url = extractRecoveryUrl(ctx.request.body);
        if (url) target = { integrationId: answer.integration_id, contactId: answer.contact_id, url };
      }
      if (!target) return;
      await this.remember(target.integrationId, target.contactId, target.url).catch((err) =>
        logger.warn({ err: (err as Error).message }, 'storing a recovery URL failed'),
      );
    };
  }
}
