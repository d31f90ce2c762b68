import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { TimelineEntry } from '@act/contracts/src/timeline';
import type { TimelineSource } from '../timeline';
import { trackedLinkModel, type TrackedLinkDoc } from './model';

/** The public path of a tracked link, before its token. */
export const TRACKED_LINK_PATH = '/r/';

/**
 * What a preview shows for a token: no row is kept for it (a click finds no link). As long as an SMS token (the
 * letter and 12 characters), so an SMS preview counts the segments of the text sent.
 */
export const TRACKED_LINK_PREVIEW_TOKEN = '(tracked-url)';

/** What a token looks like: a service letter and base64url; anything else is unknown without a lookup. */
const TOKEN = /^[a-z][A-Za-z0-9_-]{8,43}$/;

/** One message about to be sent with a tracked link: whose it is and where it goes (its row without token and clicks). */
export type TrackedLinkRequest = Pick<TrackedLinkDoc, 'contact_ref' | 'contact_id' | 'campaign_id' | 'template_id' | 'step' | 'variant' | 'target'>;

export interface TrackedLinksOptions {
  /** The service's letter, first in its tokens: the gateway sends `/r/<token>` to the service it names. */
  prefix: 'e' | 's';
  /** Random bytes per token: 16 for email; 9 (72 bits, 12 characters) keeps an SMS link short. */
  tokenBytes: number;
  /** PUBLIC_URL: where shoppers reach the gateway. */
  publicUrl: string;
  /** After a message's first click: the side keeps it on its contact too (the email revenue funnel reads it there). */
  firstClick?: (contactRef: number, at: Date) => Promise<void>;
}

/**
 * A service's redirect links: the recovery link of a message replaced by `<PUBLIC_URL>/r/<token>`, the token random
 * (nothing in it says whose it is) and kept with the contact, campaign, step, variant and target. A click is one
 * lookup by the token's unique index; the first one flags the message as clicked.
 */
export class TrackedLinks {
  readonly coll: Collection<TrackedLinkDoc>;
  private readonly base: string;

  constructor(
    conn: Connection,
    private readonly opts: TrackedLinksOptions,
  ) {
    this.coll = trackedLinkModel(conn).collection as unknown as Collection<TrackedLinkDoc>;
    this.base = `${opts.publicUrl.replace(/(?<!\/)\/+$/, '')}${TRACKED_LINK_PATH}`;
  }

  static async init(conn: Connection): Promise<void> {
    await trackedLinkModel(conn).init();
  }

  newToken(): string {
    return this.opts.prefix + randomBytes(this.opts.tokenBytes).toString('base64url');
  }

  urlOf(token: string): string {
    return this.base + token;
  }

  /** A message's link as a preview shows it: the send's `<PUBLIC_URL>/r/` and a stand-in for the token, nothing kept. */
  previewUrl(): string {
    return this.urlOf(TRACKED_LINK_PREVIEW_TOKEN);
  }

  /**
   * The links of these messages, one per (contact, template): made now, or the one a retried send made before (its
   * target brought up to date). Returns the public URLs in the order asked.
   */
  async issue(requests: TrackedLinkRequest[], at = new Date()): Promise<string[]> {
    if (requests.length === 0) return [];
    await this.coll
      .bulkWrite(
        requests.map((r) => ({
          updateOne: {
            filter: { contact_ref: r.contact_ref, template_id: r.template_id },
            update: {
              $set: { contact_id: r.contact_id, campaign_id: r.campaign_id, step: r.step, variant: r.variant, target: r.target },
              $setOnInsert: { token: this.newToken(), created_at: at, clicked_at: null, last_clicked_at: null, clicks: 0 },
            },
            upsert: true,
          },
        })),
        { ordered: false },
      )
      .catch((err: { code?: number; writeErrors?: unknown[] }) => {
        // Two attempts at one message at once (each side claims a message before sending it, so only a lost race
        // of an interrupted send): the other's row stands, read below.
        if (err.code !== 11000) throw err;
      });
    const rows = await this.coll
      .find(
        { contact_ref: { $in: [...new Set(requests.map((r) => r.contact_ref))] }, template_id: { $in: [...new Set(requests.map((r) => r.template_id))] } },
        { projection: { _id: 0, contact_ref: 1, template_id: 1, token: 1 } },
      )
      .toArray();
    const tokenOf = new Map(rows.map((r) => [`${r.contact_ref}|${r.template_id}`, r.token]));
    return requests.map((r) => {
      const token = tokenOf.get(`${r.contact_ref}|${r.template_id}`);
      if (!token) throw new Error(`tracked link for contact ${r.contact_ref}, template ${r.template_id} was not kept`);
      return this.urlOf(token);
    });
  }

  /** The link a message was sent with, when it had one (an interrupted send's check writes the same text). */
  async sentWith(contactRef: number, templateId: number): Promise<string | null> {
    const row = await this.coll.findOne({ contact_ref: contactRef, template_id: templateId }, { projection: { _id: 0, token: 1 } });
    return row ? this.urlOf(row.token) : null;
  }

  /** A shopper opened the link: counted, the first click flagged; the target, or null for a token nobody was given. */
  async click(token: string, at = new Date()): Promise<string | null> {
    if (!TOKEN.test(token) || token[0] !== this.opts.prefix) return null;
    const before = await this.coll.findOneAndUpdate(
      { token },
      { $inc: { clicks: 1 }, $set: { last_clicked_at: at } },
      { projection: { _id: 0, target: 1, clicked_at: 1, contact_ref: 1 }, returnDocument: 'before' },
    );
    if (!before) return null;
    if (!before.clicked_at) {
      await this.coll.updateOne({ token, clicked_at: null }, { $set: { clicked_at: at } });
      await this.opts.firstClick?.(before.contact_ref, at);
    }
    return before.target;
  }

  /** Contacts who clicked a step's link, per variant (each contact once). */
  async clickedPerVariant(templateId: number, variants: string[]): Promise<Map<string, number>> {
    const rows = await this.coll
      .find({ template_id: templateId, variant: { $in: variants }, clicked_at: { $ne: null } }, { projection: { _id: 0, variant: 1, contact_ref: 1 } })
      .toArray();
    const seen = new Map<string, Set<number>>(variants.map((v) => [v, new Set()]));
    for (const r of rows) seen.get(r.variant!)?.add(r.contact_ref);
    return new Map([...seen].map(([v, s]) => [v, s.size]));
  }
}

/** The timeline's words for a click on our link (one entry per message, at its first click). */
export function clickedEntry(side: 'email' | 'sms', l: TrackedLinkDoc): TimelineEntry | null {
  if (!l.clicked_at) return null;
  const more = l.clicks > 1 ? `; opened ${l.clicks} times, last ${l.last_clicked_at?.toISOString() ?? ''}` : '';
  return {
    key: `${side}.click:${l.token}`,
    at: l.clicked_at.toISOString(),
    side,
    kind: 'provider',
    title: side === 'email' ? 'Email link clicked' : 'SMS link clicked',
    status: 'clicked',
    detail: `The recovery link of step ${l.step ?? '?'}${l.variant ? ` (variant ${l.variant})` : ''}${more}`,
    ref: { collection: 'tracked_links', id: l.token },
  };
}

/** A timeline source of the clicks on these contacts' links (read whole: a contact has a few). */
export function clickedSource(side: 'email' | 'sms', links: TrackedLinks, refs: number[]): TimelineSource<TrackedLinkDoc> {
  return {
    coll: links.coll,
    prefix: `${side}.click`,
    filter: { contact_ref: { $in: refs }, clicked_at: { $ne: null } },
    at: 'clicked_at',
    id: 'few',
    entry: (l) => clickedEntry(side, l),
  };
}
