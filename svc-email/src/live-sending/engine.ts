import type { Connection } from 'mongoose';
import { MongoBulkWriteError, ObjectId, type Collection } from 'mongodb';
import type { Logger } from '@act/service-kit';
import { usesCheckoutLink } from '@act/contracts/src/email-api';
import { NO_CHECKOUT_LINK_MESSAGE } from '@act/contracts/src/checkout-link';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService, NewEmailLog } from '../email-logs/service';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { EmailTemplateDoc } from '../templates/model';
import type { UnsubscribeService } from '../unsubscribe/service';
import { normaliseEmail } from '../unsubscribe/model';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import { BATCH_MAX, type ResendProvider } from '../providers/resend';
import type { SendResult } from '../providers/types';
import { composeEmail } from './compose';
import type { RecoveryUrls } from './recovery-urls';
import { sendClaimModel, sequenceStepModel, type SendClaimDoc, type SequenceStepDoc } from './model';
import { StepStore, type StepRelease } from './step-store';

/** A step being worked holds its contact this long: longer than any provider call (RESEND_TIMEOUT_MS). */
const LEASE_MS = 5 * 60_000;
/** Live sending on but Resend not configured: look again after this (nothing is dropped meanwhile). */
const NOT_CONFIGURED_RETRY_MS = 30_000;
/** A step that threw (database trouble) is tried again after this. */
const ERROR_RETRY_MS = 10_000;
/** Steps one instance works at once when EMAIL_SEND_CONCURRENCY is not given: three bursts of a full batch. */
const DEFAULT_CONCURRENCY = 300;
/** Checkout-link lookups of a burst at once (only for templates that use the link). */
const LINK_LOOKUPS_AT_ONCE = 16;

export type StepOutcome =
  'not_due' | 'busy' | 'waiting' | 'not_configured' | 'sent' | 'failed' | 'skipped' | 'finished' | 'stopped';

export interface SequenceEngineDeps {
  conn: Connection;
  campaigns: CampaignsService;
  templates: TemplatesService;
  unsubscribes: UnsubscribeService;
  provider: ResendProvider;
  recoveryUrls: RecoveryUrls;
  logs: EmailLogsService;
  links: UnsubscribeLinkSettings;
  /** Length of one hour of delay_hours (EMAIL_DELAY_HOUR_MS). */
  hourMs: number;
  /**
   * Steps worked at once (EMAIL_SEND_CONCURRENCY), in bursts of up to 100 (a batch call's size); default
   * DEFAULT_CONCURRENCY.
   */
  concurrency?: number;
  scanMs: number;
  logger: Logger;
}

export interface SequenceStart {
  id: number;
  contact_id: string;
  integration_id: number | null;
  campaign_id: number;
}

export function sentMessage(t: Pick<EmailTemplateDoc, 'name' | 'template_order'>, email: string, id: string): string {
  return `Sent "${t.name}" (step ${t.template_order}) to ${email}; Resend id ${id}`;
}
export function skippedNoLinkMessage(t: Pick<EmailTemplateDoc, 'name' | 'template_order'>, email: string): string {
  return `Not sent "${t.name}" (step ${t.template_order}) to ${email}: ${NO_CHECKOUT_LINK_MESSAGE}`;
}
export function failedMessage(
  t: Pick<EmailTemplateDoc, 'name' | 'template_order'>,
  email: string,
  error: string,
): string {
  return `Failed to send "${t.name}" (step ${t.template_order}) to ${email}: ${error}`;
}
export function unsubscribedMessage(email: string): string {
  return `Not sent: ${email} is on the unsubscribe list`;
}

/** A step this burst holds the lease of, and what the burst decided for it. */
interface Held {
  row: SequenceStepDoc;
  contact?: BurstContact;
  templates?: EmailTemplateDoc[];
  next?: EmailTemplateDoc;
  recoveryUrl?: string | null;
  claimId?: string;
  outcome?: StepOutcome;
  /** Written to the row when the burst ends its lease. */
  release?: Omit<StepRelease, 'ref'>;
  log?: NewEmailLog;
}

type BurstContact = Pick<ContactDoc, 'id' | 'contact_id' | 'email' | 'status' | 'integration_id'>;
const CONTACT_FIELDS = { _id: 0, id: 1, contact_id: 1, email: 1, status: 1, integration_id: 1 } as const;

const after = (t: EmailTemplateDoc, order: number, id: number) =>
  t.template_order > order || (t.template_order === order && t.id > id);

/**
 * Live campaign sends ("phase 2"): a due contact gets its campaign's active templates in template_order, the
 * first at remind_at (plus its own delay_hours, 0 by default), each next one delay_hours after the previous
 * send. Right before each send: the contact still exists and has not purchased, the campaign still exists and
 * is active, the address is not unsubscribed. Safe with any number of instances: a step is taken by a
 * compare-and-set on the sequence row, and the (contact, template) claim is inserted before Resend is called,
 * which also gets an Idempotency-Key; an email goes out at most once.
 *
 * Due steps are worked in bursts of up to a batch call's 100 (like svc-sms's engine): one read and one
 * compare-and-set write take the burst's rows, one read each for the contacts, the campaigns and their templates,
 * the unsubscribe list, one insert of the claims, the emails handed to the provider together (its batch sender
 * paces them under RESEND_MAX_RPS), one write of the claims' outcomes, one insert of the logs, one write giving the
 * rows back. One step at a time cost about twelve MongoDB round trips per email, which held svc-email to a third
 * of Resend's ceiling in bench:delivery.
 */
export class SequenceEngine {
  private readonly store: StepStore;
  private readonly steps: Collection<SequenceStepDoc>;
  private readonly claims: Collection<SendClaimDoc>;
  private readonly contacts: Collection<ContactDoc>;
  /** Rows a burst of this instance holds now. */
  private readonly inFlight = new Set<number>();
  /** Rows waiting for a burst, in arrival order. */
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  private running = 0;
  private readonly burstSize: number;
  private readonly maxBursts: number;
  private timer: NodeJS.Timeout | null = null;
  private scanning = false;
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: SequenceEngineDeps) {
    this.steps = sequenceStepModel(deps.conn).collection as unknown as Collection<SequenceStepDoc>;
    this.claims = sendClaimModel(deps.conn).collection as unknown as Collection<SendClaimDoc>;
    this.contacts = contactModel(deps.conn).collection as unknown as Collection<ContactDoc>;
    this.store = new StepStore(this.steps);
    const concurrency = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
    this.burstSize = Math.min(BATCH_MAX, concurrency);
    this.maxBursts = Math.max(1, Math.round(concurrency / this.burstSize));
  }

  static async init(conn: Connection): Promise<void> {
    await Promise.all([sequenceStepModel(conn).init(), sendClaimModel(conn).init()]);
  }

  /** Starts sequences for contacts just claimed (pending → sent) by this instance; the first steps run at once. */
  async begin(items: SequenceStart[], at = new Date()): Promise<void> {
    if (items.length === 0) return;
    await this.steps.bulkWrite(
      items.map((c) => ({
        updateOne: {
          filter: { contact_ref: c.id },
          update: {
            $setOnInsert: {
              contact_ref: c.id,
              contact_id: c.contact_id,
              integration_id: c.integration_id,
              campaign_id: c.campaign_id,
              last_order: 0,
              last_template_id: 0,
              base_at: at,
              due_at: at,
              lease_id: null,
              state: 'waiting' as const,
              sent: 0,
              stop_reason: null,
              created_at: at,
              updated_at: at,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    // Off the reminder path: the claim answered already, sends take as long as Resend takes. Whatever fails
    // here is picked up by the due scan.
    this.enqueue(items.map((c) => c.id));
  }

  /**
   * Queues every waiting step that came due (all instances scan; the compare-and-set decides who works it). Skipped
   * while this instance has a full round of bursts queued: those are due already, and reading more only collides.
   */
  async scan(): Promise<number> {
    if (this.scanning || this.queue.length >= this.burstSize * this.maxBursts) return 0;
    this.scanning = true;
    try {
      const due = await this.steps
        .find({ state: 'waiting', due_at: { $lte: new Date() } }, { projection: { _id: 0, contact_ref: 1 } })
        .sort({ due_at: 1 })
        .limit(this.burstSize * this.maxBursts)
        .toArray();
      return this.enqueue(due.map((d) => d.contact_ref));
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message }, 'sequence scan failed');
      return 0;
    } finally {
      this.scanning = false;
    }
  }

  private enqueue(refs: number[], first = false): number {
    const fresh = refs.filter((r) => !this.inFlight.has(r) && !this.queued.has(r));
    for (const r of fresh) this.queued.add(r);
    if (first) this.queue.unshift(...fresh);
    else this.queue.push(...fresh);
    this.pump();
    return fresh.length;
  }

  /** Starts bursts while fewer than `maxBursts` run (EMAIL_SEND_CONCURRENCY steps at once in all). */
  private pump(): void {
    while (this.running < this.maxBursts && this.queue.length > 0) {
      const refs = this.queue.splice(0, this.burstSize);
      for (const r of refs) this.queued.delete(r);
      this.running++;
      void this.processBurst(refs)
        .then(({ again }) => {
          // The next template is due at once (delay 0): it goes first, like the one just sent.
          if (again.length) this.enqueue(again, true);
        })
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }

  /**
   * One step of each of these contacts' sequences, for those that are due: the outcome per contact, and the contacts
   * whose next step is due already. A contact another burst of this instance holds is 'busy'; an error gives the
   * burst's leases back with a short delay (their claims keep any email sent from going out again).
   */
  async processBurst(refs: number[]): Promise<{ outcomes: Map<number, StepOutcome>; again: number[] }> {
    const outcomes = new Map<number, StepOutcome>();
    const mine: number[] = [];
    for (const ref of new Set(refs)) {
      if (this.inFlight.has(ref)) outcomes.set(ref, 'busy');
      else {
        this.inFlight.add(ref);
        mine.push(ref);
      }
    }
    try {
      return { outcomes, again: mine.length ? await this.burst(mine, outcomes) : [] };
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message, contacts: mine.length }, 'sequence steps failed');
      return { outcomes, again: [] };
    } finally {
      for (const ref of mine) this.inFlight.delete(ref);
    }
  }

  private async burst(refs: number[], out: Map<number, StepOutcome>): Promise<number[]> {
    const now = new Date();
    const rows = await this.store.read(refs);
    const due = rows.filter((r) => r.state === 'waiting' && r.due_at && r.due_at.getTime() <= now.getTime());
    for (const ref of refs) out.set(ref, 'not_due');
    if (due.length === 0) return [];
    for (const r of due) out.set(r.contact_ref, 'busy');
    const { leaseId, taken } = await this.store.take(due, new Date(now.getTime() + LEASE_MS));
    if (taken.length === 0) return [];
    const held: Held[] = taken.map((row) => ({ row }));
    try {
      await this.run(held, now);
      const logs = held.filter((h) => h.log).map((h) => h.log!);
      await this.deps.logs.addMany(logs);
      await this.store.release(
        leaseId,
        held.filter((h) => h.release).map((h) => ({ ref: h.row.contact_ref, ...h.release! })),
      );
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message, contacts: held.length }, 'sequence steps failed; retrying later');
      await this.store
        .release(
          leaseId,
          held.map((h) => ({ ref: h.row.contact_ref, set: { due_at: new Date(Date.now() + ERROR_RETRY_MS) } })),
        )
        .catch(() => undefined);
      return [];
    }
    const again: number[] = [];
    const t = Date.now();
    for (const h of held) {
      out.set(h.row.contact_ref, h.outcome ?? 'busy');
      const next = h.release?.set;
      const moved = h.outcome === 'sent' || h.outcome === 'failed' || h.outcome === 'skipped';
      if (moved && next?.state === 'waiting' && next.due_at && next.due_at.getTime() <= t) again.push(h.row.contact_ref);
    }
    return again;
  }

  /** Decides each held step: stop, finish, wait, skip, or send (with its claim), and what its row and log become. */
  private async run(held: Held[], now: Date): Promise<void> {
    const open = () => held.filter((h) => !h.outcome);
    const stop = (h: Held, reason: string) => {
      h.outcome = 'stopped';
      h.release = { set: { state: 'stopped', due_at: null, stop_reason: reason } };
    };

    // By the unique `id` index ($in on it is an index lookup on the stand-in too).
    const contacts = await this.contacts
      .find({ id: { $in: held.map((h) => h.row.contact_ref) } }, { projection: CONTACT_FIELDS })
      .toArray();
    const byId = new Map(contacts.map((c) => [c.id, c as BurstContact]));
    for (const h of held) {
      const c = byId.get(h.row.contact_ref);
      if (!c) stop(h, 'contact_deleted');
      else if (c.status === 'purchased') stop(h, 'purchased');
      else h.contact = c;
    }

    // Each campaign of the burst once (a burst is mostly one campaign).
    const templatesOf = new Map<number, EmailTemplateDoc[] | null>();
    for (const id of new Set(open().map((h) => h.row.campaign_id))) {
      const campaign = await this.deps.campaigns.find(id);
      templatesOf.set(id, campaign?.active ? await this.deps.templates.activeOfCampaign(id) : null);
    }
    for (const h of open()) {
      const templates = templatesOf.get(h.row.campaign_id);
      if (!templates) {
        stop(h, 'campaign_unavailable');
        continue;
      }
      const next = templates.find((t) => after(t, h.row.last_order, h.row.last_template_id));
      if (!next) {
        h.outcome = 'finished';
        h.release = { set: { state: 'finished', due_at: null } };
        continue;
      }
      // Read now, not when the previous step went out: an edited delay applies to steps still to come.
      const due = new Date(h.row.base_at.getTime() + next.delay_hours * this.deps.hourMs);
      if (due.getTime() > now.getTime()) {
        h.outcome = 'waiting';
        h.release = { set: { due_at: due } };
        continue;
      }
      h.templates = templates;
      h.next = next;
    }
    if (open().length === 0) return;

    const status = await this.deps.provider.status();
    if (!status.configured || !status.from) {
      this.warnNotConfigured();
      for (const h of open()) {
        h.outcome = 'not_configured';
        h.release = { set: { due_at: new Date(now.getTime() + NOT_CONFIGURED_RETRY_MS) } };
      }
      return;
    }
    const from = status.from;

    const unsubscribed = await this.deps.unsubscribes.unsubscribedAmong(open().map((h) => h.contact!.email));
    for (const h of open()) {
      if (!unsubscribed.has(normaliseEmail(h.contact!.email))) continue;
      h.log = this.logOf(h.contact!, unsubscribedMessage(h.contact!.email), 'unsubscribed');
      stop(h, 'unsubscribed');
    }

    // No email with an empty or made-up checkout link: a template that needs one is skipped (and logged) for a
    // contact with neither its funnel's link nor a fallback; the sequence goes on with the next template. Only the
    // templates that use the link look it up.
    const needLink = open().filter((h) => usesCheckoutLink(`${h.next!.subject}\n${h.next!.html_content}`));
    await eachAtMost(needLink, LINK_LOOKUPS_AT_ONCE, async (h) => {
      h.recoveryUrl = await this.deps.recoveryUrls.forContact(h.contact!.integration_id ?? null, h.contact!.contact_id);
    });
    for (const h of needLink) {
      if (h.recoveryUrl) continue;
      h.log = this.logOf(h.contact!, skippedNoLinkMessage(h.next!, h.contact!.email), 'skipped_no_link');
      h.outcome = 'skipped';
      h.release = this.advance(h, now, false);
    }

    // The (contact, template) claims come before the provider calls: never twice, even across instances. A claim
    // already there (a crash after it, or a race) means the template was handled: the sequence moves past it.
    const toClaim = open();
    const claimRows = toClaim.map((h) => ({
      _id: new ObjectId(),
      contact_ref: h.row.contact_ref,
      template_id: h.next!.id,
      claimed_at: now,
      status: 'claimed' as const,
      message_id: null,
      error: null,
    }));
    const refused = new Set(await insertAll(this.claims, claimRows));
    await Promise.all(
      toClaim.map(async (h, i) => {
        if (!refused.has(i)) {
          h.claimId = String(claimRows[i]!._id);
          return;
        }
        const earlier = await this.claims.findOne({ contact_ref: h.row.contact_ref, template_id: h.next!.id });
        h.outcome = 'skipped';
        h.release = this.advance(h, earlier?.claimed_at ?? now, false);
      }),
    );

    // Handed to the provider together: its batch sender puts them in as few paced calls as it can.
    const sending = open();
    const results = await Promise.all(
      sending.map(async (h) => {
        const email = composeEmail(h.next!, {
          to: h.contact!.email,
          recoveryUrl: h.recoveryUrl ?? '',
          fromAddress: from,
          links: this.deps.links,
          // The claim's id: stable for this (contact, template), unique across deployments sharing a Resend account.
          idempotencyKey: `act-email-${h.claimId}`,
        });
        const result: SendResult = await this.deps.provider
          .send(email)
          .catch((err: Error) => ({ ok: false as const, message: err.message, statusCode: null, attempts: 0 }));
        return { result, at: new Date() };
      }),
    );
    if (sending.length === 0) return;
    await this.claims.bulkWrite(
      sending.map((h, i) => {
        const { result } = results[i]!;
        return {
          updateOne: {
            filter: { contact_ref: h.row.contact_ref, template_id: h.next!.id },
            update: {
              $set: result.ok ? { status: 'sent' as const, message_id: result.id } : { status: 'failed' as const, error: result.message },
            },
          },
        };
      }),
      { ordered: false },
    );
    sending.forEach((h, i) => {
      const { result, at } = results[i]!;
      const c = h.contact!;
      if (result.ok) {
        h.log = this.logOf(c, sentMessage(h.next!, c.email, result.id), 'sent', result.id, {
          integration_id: c.integration_id ?? null,
          campaign_id: h.row.campaign_id,
          template_id: h.next!.id,
          step: h.next!.template_order,
        });
        h.outcome = 'sent';
      } else {
        h.log = this.logOf(c, failedMessage(h.next!, c.email, result.message), 'failed');
        h.outcome = 'failed';
      }
      h.release = this.advance(h, at, result.ok);
    });
  }

  /** The row past this step's template: the next one due delay_hours after `at`, or finished. */
  private advance(h: Held, at: Date, sent: boolean): Omit<StepRelease, 'ref'> {
    const next = h.next!;
    const following = h.templates!.find((t) => after(t, next.template_order, next.id));
    return {
      set: {
        last_order: next.template_order,
        last_template_id: next.id,
        base_at: at,
        state: following ? 'waiting' : 'finished',
        due_at: following ? new Date(at.getTime() + following.delay_hours * this.deps.hourMs) : null,
      },
      sent,
    };
  }

  private logOf(
    contact: Pick<ContactDoc, 'id' | 'contact_id' | 'email'>,
    message: string,
    status: string,
    messageId: string | null = null,
    touch?: NewEmailLog['touch'],
  ): NewEmailLog {
    return {
      ...(touch ? { touch } : {}),
      contact_id: contact.contact_id,
      contact_ref: contact.id,
      email: contact.email,
      message,
      status,
      ...(messageId ? { message_id: messageId } : {}),
    };
  }

  private warnNotConfigured() {
    if (Date.now() - this.lastNotConfiguredWarning < 60_000) return;
    this.lastNotConfiguredWarning = Date.now();
    this.deps.logger.warn(
      'campaign emails are due but Resend is not configured (RESEND_API_KEY / RESEND_FROM); they wait',
    );
  }

  start(): void {
    this.timer = setInterval(() => void this.scan(), this.deps.scanMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function eachAtMost<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Inserts every row it can (unordered); returns the indexes refused for a duplicate key. */
async function insertAll<T extends object>(collection: Collection<T>, rows: T[]): Promise<number[]> {
  if (rows.length === 0) return [];
  try {
    // Copies: the driver may add fields to the objects it is given.
    await collection.insertMany(rows.map((r) => ({ ...r })) as unknown as Parameters<Collection<T>['insertMany']>[0], {
      ordered: false,
    });
    return [];
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = [err.writeErrors].flat();
    if (errors.some((e) => e.code !== 11000)) throw err;
    return errors.map((e) => e.index);
  }
}
