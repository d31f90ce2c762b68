import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import {
  MongoBulkWriteError,
  type AnyBulkWriteOperation,
  type Collection,
  type Filter,
  type UpdateFilter,
} from 'mongodb';
import { NO_CHECKOUT_LINK_MESSAGE } from '@act/contracts/src/checkout-link';
import { isDuplicateKeyError, reminderLateness, type Logger } from '@act/service-kit';
import {
  isTollFree,
  renderSmsTemplate,
  usesCheckoutLink,
  type SmsLogStatus,
  type TwilioConfig,
} from '@act/contracts/src/sms-api';
import { optOutOnRefusal, sendFailureMessage } from '../provider/refusals';
import { contactModel, optOutFilter, optOutKeys, optOutModel, type ContactDoc, type OptOutDoc } from '../contacts/model';
import { OPEN_STATUSES, type SequenceScheduler } from '../contacts/service';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { campaignModel, type CampaignDoc } from '../campaigns/model';
import { templateModel, type TemplateDoc } from '../templates/model';
import type { LogDoc } from '../logs/model';
import { StepLogs } from './step-logs';
import { phoneClaimModel, sendClaimModel, type PhoneClaimDoc, type SendClaimDoc } from './model';
import { blackoutEnd } from '../blackout/blackout';
import { blackoutWindowOf, statusCallbackUrl, type ProviderConfigService } from '../provider/config';
import { logStatusFromTwilio } from '../provider/twilio';
import type { SenderPacer } from '../provider/pacing';
import type { OutgoingSms, SentSms, SmsProvider } from '../provider/types';
import type { Clock } from '../settings';
import { countdown, eachReleasing, once, RecentReads } from '@act/flow';

/**
 * A step in flight holds the contact for this long (next_at is moved to now + lease). Longer than any provider
 * call (15 s timeout), so a slow send is never taken over; a crashed sender's step is resumed after it.
 * SMS_STEP_LEASE_MS overrides it (the fault suite resumes a killed instance's steps after 20 s).
 */
export const DEFAULT_LEASE_MS = 5 * 60_000;

/** Provider calls at once within a burst for an engine without a sender pace. */
export const DEFAULT_SEND_CONCURRENCY = 32;

/** Bursts of one sweep worked at once. */
const SWEEP_BURSTS_AT_ONCE = 2;

/** A (contact, template, step) claim as read back, with its _id (an interrupted one is deleted by it). */
type Claim = SendClaimDoc & { _id: unknown };

export type StepOutcome =
  | 'not_due'
  | 'busy'
  | 'not_configured'
  | 'held_for_blackout'
  /** Over the sender's rate (TWILIO_MAX_MPS): moved to the sender's next free second, not sent now. */
  | 'paced'
  | 'sent'
  | 'failed'
  | 'skipped_duplicate'
  | 'blocked_toll_free'
  | 'skipped_no_link'
  | 'stopped'
  | 'finished';

/** Logged instead of a message with an empty link (issue 14). */
export const NO_CHECKOUT_LINK = NO_CHECKOUT_LINK_MESSAGE;

export interface SequenceEngineDeps {
  conn: Connection;
  provider: SmsProvider;
  config: ProviderConfigService;
  scheduler: SequenceScheduler;
  now: Clock;
  delayUnitMs: number;
  /** How long a step in flight holds its contact; default DEFAULT_LEASE_MS. */
  leaseMs?: number;
  /**
   * How long a step may reuse the provider settings, integration, campaign and templates another step just read
   * (SMS_RULES_CACHE_MS; 0: every burst reads them).
   */
  rulesCacheMs?: number;
  /**
   * How long after its claim a send may still be under way somewhere (the provider's retry deadline plus a call's
   * timeout): an interrupted claim younger than this is not judged yet. Default 0 (tests with no retries).
   */
  sendInFlightMs?: number;
  /** Send slots per sender shared by every instance (absent: no pacing). */
  pacer?: Pick<SenderPacer, 'reserve' | 'retrySlot' | 'refund'>;
  publicUrl: string;
  logger: Logger;
  /** Told of the logs each step writes, once written (attribution publishes its touches from them). */
  onLogged?: (logs: Omit<LogDoc, 'id'>[]) => Promise<void>;
}

/** A contact this burst holds the lease of, and what the burst decided for it. */
interface Held {
  c: ContactDoc;
  integration?: IntegrationDoc;
  tpl?: TemplateDoc;
  following?: TemplateDoc;
  message?: string;
  /** The template needs a checkout link and neither the contact nor the integration has one. */
  noLink?: boolean;
  /** The burst's own path does not fit (a claim left by an interrupted attempt...): the one-contact path takes over. */
  alone?: boolean;
  /** When the sender's pace lets this message leave. */
  slot?: Date;
  outcome?: StepOutcome;
  /** Written to the contact when the burst finishes, with step + 1 (null: nothing to write). */
  set?: Partial<ContactDoc>;
  sent?: boolean;
  log?: Omit<LogDoc, 'id'>;
  nextAt?: Date | null;
}

const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);

/**
 * Sends each contact's campaign, one template per step, in sequence_order: the first at remind_at, each next one
 * delay_minutes after the previous send. Every rule is checked right before each send (purchase, opt-out,
 * blackout, toll-free, duplicate phone). Safe with any number of instances: a step is taken with a
 * compare-and-set on the contact (next_at and step as read), and the (contact, template) and (contact, step)
 * claims are inserted before Twilio is called, so a message goes out at most once.
 *
 * Due steps are handled in bursts (processBurst): one read of the contacts, one compare-and-set write for all of
 * them, one read of opt-outs, one insert of phone claims, one re-read right before sending, one insert of send
 * claims, the provider calls side by side, one insert of logs and one write of the outcomes. One step at a time cost
 * about eleven MongoDB round trips per message, which is what held the SMS side to ~95 messages/s across two
 * instances on the stand-in (and most of svc-sms's CPU went into the driver). Anything unusual for a contact (a
 * claim left by an interrupted attempt) falls back to the one-contact path, unchanged.
 */
export class SequenceEngine {
  private readonly Contact;
  private readonly OptOut;
  private readonly Integration;
  private readonly Campaign;
  private readonly Template;
  private readonly SendClaim;
  private readonly PhoneClaim;
  private readonly logs: StepLogs;
  private readonly recent: RecentReads;
  private readonly inFlight = new Set<number>();
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: SequenceEngineDeps) {
    const { conn } = deps;
    this.Contact = contactModel(conn);
    this.OptOut = optOutModel(conn);
    this.Integration = integrationModel(conn);
    this.Campaign = campaignModel(conn);
    this.Template = templateModel(conn);
    this.SendClaim = sendClaimModel(conn);
    this.PhoneClaim = phoneClaimModel(conn);
    this.logs = new StepLogs(conn, deps.now, deps.onLogged);
    this.recent = new RecentReads(deps.rulesCacheMs ?? 0);
  }

  private get contacts(): Collection<ContactDoc> {
    return this.Contact.collection as unknown as Collection<ContactDoc>;
  }

  /**
   * Looks at every due contact now (the periodic scan and the Agenda sweep both call this), in bursts. Resolves when
   * every step taken is done; `onReleased` comes earlier, once every burst has had its first answers (only retries
   * left), when another sweep may start.
   */
  async sweep({
    limit = 200,
    burst = 100,
    onReleased,
  }: { limit?: number; burst?: number; onReleased?: () => void } = {}): Promise<number> {
    const now = this.deps.now();
    const due = await this.Contact.find({ next_at: { $lte: now }, status: { $in: OPEN_STATUSES } }, { id: 1 })
      .sort({ next_at: 1 })
      .limit(limit)
      .lean<{ id: number }[]>();
    if (due.length === 0) {
      onReleased?.();
      return 0;
    }
    // Held, not dropped: without credentials or a sender nothing can go out, and the contacts wait for them.
    const cfg = this.deps.provider.configured ? await this.recent.get('config', () => this.deps.config.get()) : null;
    if (!cfg || (!cfg.messaging_service_sid && !cfg.phone_number)) {
      this.warnNotConfigured(due.length);
      onReleased?.();
      return 0;
    }
    let handled = 0;
    const chunks: number[][] = [];
    for (let i = 0; i < due.length; i += burst) chunks.push(due.slice(i, i + burst).map((d) => d.id));
    // Two bursts side by side, the next one starting as soon as one has had every first answer: a burst lasts
    // until its last message, retries included, and waiting for its stragglers' backoffs left the sender idle.
    await eachReleasing(
      chunks,
      SWEEP_BURSTS_AT_ONCE,
      async (refs, release) => {
        const outcomes = await this.processBurst(refs, release);
        for (const o of outcomes.values()) if (o !== 'busy' && o !== 'not_due') handled++;
      },
      onReleased,
    );
    return handled;
  }

  /** One step of one contact's sequence, if it is due (an Agenda job). */
  async processContact(ref: number): Promise<StepOutcome> {
    return (await this.processBurst([ref])).get(ref) ?? 'busy';
  }

  /**
   * One step of each of these contacts' sequences, for those that are due: the outcome per contact. A contact
   * another call of this instance is at is 'busy'; an error leaves the undecided ones 'busy' (their lease, if
   * taken, runs out and any instance takes them up again). `onReleased` is called once every message of the burst
   * has had its first answer from the provider (or at the end, whichever comes first): what is left are retries
   * waiting for their backoff, and the caller may start another burst meanwhile.
   */
  async processBurst(refs: number[], onReleased: () => void = () => undefined): Promise<Map<number, StepOutcome>> {
    const release = once(onReleased);
    const out = new Map<number, StepOutcome>();
    const mine: number[] = [];
    for (const ref of new Set(refs)) {
      if (this.inFlight.has(ref)) out.set(ref, 'busy');
      else {
        this.inFlight.add(ref);
        mine.push(ref);
      }
    }
    if (mine.length === 0) {
      release();
      return out;
    }
    try {
      await this.burst(mine, out, release);
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message, contacts: mine.length }, 'SMS steps failed');
    } finally {
      for (const ref of mine) {
        this.inFlight.delete(ref);
        if (!out.has(ref)) out.set(ref, 'busy');
      }
      release();
    }
    return out;
  }

  private warnNotConfigured(count: number) {
    const t = Date.now();
    if (t - this.lastNotConfiguredWarning < 60_000) return;
    this.lastNotConfiguredWarning = t;
    this.deps.logger.warn(
      { due: count },
      'SMS contacts are due but Twilio is not configured (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN, and a messaging service or phone number); they wait',
    );
  }

  private async burst(refs: number[], out: Map<number, StepOutcome>, release: () => void): Promise<void> {
    const now = this.deps.now();
    // By the `id` index ($in on a unique key is an index lookup on the stand-in too).
    const read = await this.contacts.find({ id: { $in: refs } }).toArray();
    const due = read.filter((c) => isOpen(c.status) && c.next_at && c.next_at.getTime() <= now.getTime());
    for (const ref of refs) if (!due.some((c) => c.id === ref)) out.set(ref, 'not_due');
    if (due.length === 0) return;
    const cfg = this.deps.provider.configured ? await this.recent.get('config', () => this.deps.config.get()) : null;
    if (!cfg || (!cfg.messaging_service_sid && !cfg.phone_number)) {
      this.warnNotConfigured(due.length);
      for (const c of due) out.set(c.id, 'not_configured');
      return;
    }

    // Quiet hours: move the steps to the window's end (never drop them).
    const end = blackoutEnd(now, blackoutWindowOf(cfg));
    if (end) {
      const moved = await this.casAll(
        due.map((c) => ({ c, next_at: c.next_at!, update: { $set: { next_at: end, held_until: end, updated_at: now } } })),
      );
      for (const c of due) out.set(c.id, moved.has(c.id) ? 'held_for_blackout' : 'busy');
      await this.logs.writeHeld(
        due.filter((c) => moved.has(c.id)),
        end,
        now,
      ).catch((err) => this.deps.logger.warn({ err: (err as Error).message }, 'could not log the steps held by the blackout'));
      // Side by side: the scheduler writes its jobs in one batch per burst of calls.
      await Promise.all([...moved].map((id) => this.deps.scheduler.schedule(id, end).catch(() => undefined)));
      return;
    }

    // Take the steps: compare-and-set on what we read. A second instance reading the same rows fails here.
    const lease = new Date(now.getTime() + (this.deps.leaseMs ?? DEFAULT_LEASE_MS));
    const taken = await this.casAll(due.map((c) => ({ c, next_at: c.next_at!, update: { $set: { next_at: lease } } })));
    const held: Held[] = [];
    for (const c of due) {
      if (taken.has(c.id)) held.push({ c });
      else out.set(c.id, 'busy');
    }
    if (held.length === 0) return;
    // Outcomes only once every write of the burst is done: after an error the steps stay 'busy' (their jobs are
    // kept), and the lease running out brings them back.
    await this.runHeld(held, lease, cfg, now, release);
    for (const h of held) if (h.outcome) out.set(h.c.id, h.outcome);
  }

  private async runHeld(held: Held[], lease: Date, cfg: TwilioConfig, now: Date, release: () => void): Promise<void> {
    const end = (h: Held, outcome: StepOutcome, status?: ContactDoc['status']) => {
      h.outcome = outcome;
      h.set = { next_at: null, status: status ?? (h.c.step === 0 && h.c.status === 'pending' ? 'abandoned' : h.c.status) };
    };
    const open = () => held.filter((h) => !h.outcome && !h.alone);

    for (const h of held) {
      const id = h.c.integration_id;
      const integration = id
        ? await this.recent.get(`integration:${id}`, () => this.Integration.findOne({ id }).lean<IntegrationDoc>())
        : null;
      if (!integration || !integration.active) end(h, 'stopped');
      else h.integration = integration;
    }
    let optedOut = await this.optedOut(open().map((h) => h.c.phone));
    for (const h of open()) if (optedOut.has(h.c.phone)) end(h, 'stopped', 'opted_out');

    // Which templates each contact has had: none at step 0 (a claim left there by an interrupted attempt shows up
    // as a duplicate key when claiming, and sends the contact the one-contact way); read for the later steps.
    const later = open().filter((h) => h.c.step > 0);
    const claims = new Map<number, Claim[]>();
    if (later.length) {
      const rows = await (this.SendClaim.collection as unknown as Collection<Claim>)
        .find({ contact_ref: { $in: later.map((h) => h.c.id) } })
        .toArray();
      for (const r of rows) claims.set(r.contact_ref, [...(claims.get(r.contact_ref) ?? []), r]);
    }
    for (const h of open()) {
      const integration = h.integration!;
      const campaign = await this.recent.get(`campaign:${integration.id}:${integration.sms_campaign_id}`, () =>
        this.campaignOf(integration),
      );
      if (!campaign || !campaign.active) {
        end(h, 'finished');
        continue;
      }
      const templates = await this.templatesOf(campaign.id);
      const had = claims.get(h.c.id) ?? [];
      if (had.some((s) => s.step >= h.c.step)) {
        h.alone = true;
        continue;
      }
      const done = new Set(had.map((s) => s.template_id));
      const pending = templates.filter((t) => !done.has(t.id));
      if (!pending[0]) {
        end(h, 'finished');
        continue;
      }
      h.tpl = pending[0];
      h.following = pending[1];
      const link = h.c.checkout_url || h.integration?.checkout_fallback_url || null;
      h.message = renderSmsTemplate(h.tpl.message, { first_name: h.c.first_name, checkout_url: link });
      h.noLink = !link && usesCheckoutLink(h.tpl.message);
      if (isTollFree(h.c.phone)) {
        h.log = this.logOf(h, 'blocked_toll_free', { error_message: 'Toll-free numbers cannot receive SMS' });
        end(h, 'blocked_toll_free');
      }
    }

    const owners = await this.phoneOwners(open());
    for (const h of open()) {
      if (owners.get(h.c.id)) continue;
      h.log = this.logOf(h, 'skipped_duplicate', {
        error_message: 'Phone already messaged for another contact of this integration',
      });
      h.outcome = 'skipped_duplicate';
      h.set = { next_at: null, status: 'skipped_duplicate' };
    }

    // A purchase or STOP may have landed since the contacts were read: look again right before sending.
    if (open().length) {
      const fresh = await this.contacts
        .find({ id: { $in: open().map((h) => h.c.id) } }, { projection: { _id: 0, id: 1, status: 1, next_at: 1 } })
        .toArray();
      const byId = new Map(fresh.map((f) => [f.id, f]));
      for (const h of open()) {
        const f = byId.get(h.c.id);
        // Stopped meanwhile: the purchase or STOP wrote the contact; nothing to add.
        if (!f || !isOpen(f.status)) h.outcome = 'stopped';
        // The lease ran out and another attempt holds the step now.
        else if (f.next_at?.getTime() !== lease.getTime()) h.outcome = 'busy';
      }
      optedOut = await this.optedOut(open().map((h) => h.c.phone));
      for (const h of open()) if (optedOut.has(h.c.phone)) end(h, 'stopped', 'opted_out');
    }

    // Claim (contact, template) and (contact, step) right before the provider calls: a claimed template is never
    // sent again. A claim already there (an interrupted attempt, or one that raced us) sends that contact the
    // one-contact way, which asks the provider what became of it.
    await this.pace(
      open().filter((h) => !h.noLink),
      cfg,
      lease,
      now,
    );
    const toSend = open();
    if (toSend.length) {
      const rows: SendClaimDoc[] = toSend.map((h) => ({
        contact_ref: h.c.id,
        template_id: h.tpl!.id,
        step: h.c.step,
        claimed_at: now,
      }));
      const refused = await this.insertAll(this.SendClaim.collection as unknown as Collection<SendClaimDoc>, rows);
      for (const i of refused) toSend[i]!.alone = true;
    }
    const sending = toSend.filter((h) => !h.alone);
    // Once per message: its first answer (a retry under way counts), else its end.
    const firstAnswer = countdown(sending.length, release);
    const sendOne = async (h: Held) => {
      if (h.noLink) {
        // Claimed like a send, so the sequence goes on with the next template; nothing with an empty link goes out.
        h.log = this.logOf(h, 'skipped_no_link', { error_message: NO_CHECKOUT_LINK });
        h.outcome = 'skipped_no_link';
        h.nextAt = h.following ? new Date(this.deps.now().getTime() + h.following.delay_minutes * this.deps.delayUnitMs) : null;
        h.set = {
          next_at: h.nextAt,
          status: h.nextAt || h.c.step > 0 || h.c.status !== 'pending' ? h.c.status : 'abandoned',
        };
        return;
      }
      let sent: SentSms;
      if (h.slot) await sleepUntil(h.slot, this.deps.now);
      // The lease ran out meanwhile (a burst slowed down): given up before the call, claim removed; the step is
      // retaken, and no send of it starts after its lease (see sendInFlightMs).
      if (this.deps.now().getTime() > lastCallAt(lease).getTime()) {
        await this.SendClaim.deleteOne({ contact_ref: h.c.id, template_id: h.tpl!.id });
        h.outcome = 'busy';
        return;
      }
      try {
        sent = await this.deps.provider.send({
          to: h.c.phone,
          body: h.message!,
          messagingServiceSid: cfg.messaging_service_sid || undefined,
          from: cfg.phone_number || undefined,
          statusCallback: statusCallbackUrl(cfg, this.deps.publicUrl),
          notAfter: lastCallAt(lease),
          ...this.paced(cfg),
          retrying: () => firstAnswer(h),
        });
      } catch (err) {
        const msg = sendFailureMessage(err);
        const optedOut = await this.optOutOnRefusal(h.c.phone, err);
        h.log = this.logOf(h, 'failed', { error_message: msg });
        h.outcome = 'failed';
        // A number that opted out ends its sequence like a STOP reply does; any other refusal is an error.
        h.set = { next_at: null, status: optedOut ? 'opted_out' : 'error' };
        // `detail`: a transport failure's own text (host names), kept out of the log row staff read.
        this.deps.logger.warn({ contact: h.c.id, err: msg, detail: (err as { detail?: string }).detail }, 'SMS send failed');
        return;
      }
      const sentAt = this.deps.now();
      observeLateness(h.c.next_at, sentAt);
      h.log = this.logOf(h, logStatusFromTwilio(sent.status) ?? 'queued', { message_sid: sent.sid });
      h.nextAt = h.following ? new Date(sentAt.getTime() + h.following.delay_minutes * this.deps.delayUnitMs) : null;
      h.outcome = 'sent';
      h.sent = true;
      h.set = { status: 'sent', last_sent_at: sentAt, next_at: h.nextAt };
    };
    // With a sender pace the slots space the calls, and every message of the burst waits for its own at once: with a
    // fixed number of workers, one holding a retry that waits for a slot seconds ahead left the first attempts
    // behind it late for theirs (slots passing unused).
    const workers = this.deps.pacer ? sending.length : DEFAULT_SEND_CONCURRENCY;
    await eachReleasing(sending, workers, async (h) => {
      try {
        await sendOne(h);
      } finally {
        firstAnswer(h);
      }
    });

    // A log per message or skip, then the step's outcome: lost with the process in between, they are redone after
    // the lease (a send is then found at the provider, not repeated).
    await this.logs.writeAll(held.filter((h) => h.log).map((h) => h.log!));
    await this.finishAll(
      held.filter((h) => h.set),
      lease,
    );
    await Promise.all(
      held.filter((h) => h.nextAt).map((h) => this.deps.scheduler.schedule(h.c.id, h.nextAt!).catch(() => undefined)),
    );

    // The contacts the burst's path did not fit, one by one as before (still under the lease).
    await eachReleasing(
      held.filter((h) => h.alone && !h.outcome),
      4,
      async (h) => {
        h.outcome = await this.stepTaken(h.c, lease, cfg, now);
      },
    );
  }

  /** A 21610 refusal puts the number on the opt-out list (provider/refusals.ts, shared with the test SMS). */
  private optOutOnRefusal(phone: string, err: unknown): Promise<boolean> {
    return optOutOnRefusal({ OptOut: this.OptOut, now: this.deps.now, logger: this.deps.logger }, phone, err);
  }

  /** Phones among these that replied STOP, by the opt-outs' unique `phone` index (one read for the burst). */
  private async optedOut(phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const { keys, phoneOf } = optOutKeys(phones);
    const rows = await (this.OptOut.collection as unknown as Collection<OptOutDoc>)
      .find({ phone: { $in: keys } }, { projection: { _id: 0, phone: 1 } })
      .toArray();
    return new Set(rows.map((r) => phoneOf.get(r.phone)!));
  }

  /**
   * Whether each contact owns its phone in its integration: the first contact to be messaged on a phone owns it,
   * race-free through the unique index. One insert for the burst; a refused row reads its owner.
   */
  private async phoneOwners(held: Held[]): Promise<Map<number, boolean>> {
    const owners = new Map<number, boolean>();
    if (held.length === 0) return owners;
    const at = this.deps.now();
    const rows: PhoneClaimDoc[] = held.map((h) => ({
      integration_id: h.integration!.id,
      phone: h.c.phone,
      contact_id: h.c.contact_id,
      claimed_at: at,
    }));
    const refused = new Set(
      await this.insertAll(this.PhoneClaim.collection as unknown as Collection<PhoneClaimDoc>, rows),
    );
    await Promise.all(
      held.map(async (h, i) => {
        if (!refused.has(i)) return owners.set(h.c.id, true);
        const owner = await this.PhoneClaim.findOne({
          integration_id: rows[i]!.integration_id,
          phone: h.c.phone,
        }).lean<PhoneClaimDoc>();
        owners.set(h.c.id, owner?.contact_id === h.c.contact_id);
      }),
    );
    return owners;
  }

  /** Inserts every row it can (unordered); returns the indexes refused for a duplicate key. */
  private async insertAll<T extends object>(collection: Collection<T>, rows: T[]): Promise<number[]> {
    try {
      // Copies: the driver adds _id to the objects it is given.
      await collection.insertMany(
        rows.map((r) => ({ ...r })) as unknown as Parameters<Collection<T>['insertMany']>[0],
        { ordered: false },
      );
      return [];
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError)) throw err;
      const errors = [err.writeErrors].flat();
      if (errors.some((e) => e.code !== 11000)) throw err;
      return errors.map((e) => e.index);
    }
  }

  /**
   * Slots for the messages of a burst at the sender's rate, no later than half the lease: those that fit wait for
   * their slot before the provider call; the rest go back to waiting (next_at = the sender's next free second,
   * their lease given up), so a slow sender never holds steps past their lease.
   */
  private async pace(held: Held[], cfg: TwilioConfig, lease: Date, now: Date): Promise<void> {
    if (!this.deps.pacer || held.length === 0) return;
    const until = new Date(now.getTime() + (this.deps.leaseMs ?? DEFAULT_LEASE_MS) / 2);
    const { slots, nextFree } = await this.deps.pacer.reserve(senderOf(cfg), held.length, until);
    held.forEach((h, i) => (h.slot = slots[i]));
    const left = held.slice(slots.length);
    if (left.length === 0) return;
    for (const h of left) h.outcome = 'paced';
    const moved = await this.casAll(
      left.map((h) => ({ c: h.c, next_at: lease, update: { $set: { next_at: nextFree } } })),
    );
    await Promise.all(
      [...moved].map((id) => this.deps.scheduler.schedule(id, nextFree).catch(() => undefined)),
    );
  }

  /**
   * How provider.send meets the sender's pace: a retry's slot once its backoff is over, and the refund of a slot an
   * answered refusal left unused; nothing without a pacer.
   */
  private paced(cfg: TwilioConfig): Pick<OutgoingSms, 'retrySlot' | 'slotUnused'> {
    const pacer = this.deps.pacer;
    if (!pacer) return {};
    const sender = senderOf(cfg);
    // The refund of a refused attempt lands before its retry asks for a slot (which may spend it).
    let refunded: Promise<void> = Promise.resolve();
    return {
      retrySlot: async (notBefore, until) => {
        await refunded;
        return pacer.retrySlot(sender, notBefore, until);
      },
      slotUnused: () => {
        // Not fatal (a lost refund leaves the pace as slow as without them), but said: refunds failing all along
        // would explain a sender running below its rate.
        refunded = pacer
          .refund(sender)
          .catch((err: unknown) => this.deps.logger.warn({ err: (err as Error).message, sender }, 'sender pace refund not written'));
      },
    };
  }

  /**
   * Compare-and-set on many contacts in one write: each row changes only if its step and next_at are still as
   * read. The filter is exactly the keys of the unique (id, step, next_at) index, so the MongoDB stand-in serves
   * each from that index (any other filter beyond a unique index's keys scans every contact there). A closed
   * contact always has next_at null (purchase, STOP and every end of a sequence clear it), so a row whose next_at is
   * still the date we read is open. Returns the ids that changed (read back only when some did not).
   */
  private async casAll(
    items: { c: ContactDoc; next_at: Date; update: UpdateFilter<ContactDoc> }[],
  ): Promise<Set<number>> {
    if (items.length === 0) return new Set();
    const token = randomUUID();
    const ops: AnyBulkWriteOperation<ContactDoc>[] = items.map(({ c, next_at, update }) => ({
      updateOne: {
        filter: { id: c.id, step: c.step, next_at } as Filter<ContactDoc>,
        update: { ...update, $set: { ...(update.$set ?? {}), lease_by: token } } as UpdateFilter<ContactDoc>,
      },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    if (res.modifiedCount === items.length) return new Set(items.map((i) => i.c.id));
    // Some were taken by another attempt: ours carry this write's token.
    const rows = await this.contacts
      .find({ id: { $in: items.map((i) => i.c.id) } }, { projection: { _id: 0, id: 1, lease_by: 1 } })
      .toArray();
    return new Set(rows.filter((r) => r.lease_by === token).map((r) => r.id));
  }

  /**
   * Writes each held contact's outcome with step + 1, in one write, while next_at is still our lease: a purchase
   * or STOP meanwhile cleared it, and wins (then only the step, and the message, are recorded).
   */
  private async finishAll(held: Held[], lease: Date): Promise<void> {
    if (held.length === 0) return;
    const at = this.deps.now();
    const ops: AnyBulkWriteOperation<ContactDoc>[] = held.map((h) => ({
      updateOne: {
        filter: { id: h.c.id, step: h.c.step, next_at: lease } as Filter<ContactDoc>,
        update: {
          $set: { ...h.set, step: h.c.step + 1, updated_at: at },
          $unset: { lease_by: '' },
          ...(h.sent ? { $inc: { sent_count: 1 } } : {}),
        } as UpdateFilter<ContactDoc>,
      },
    }));
    const res = await this.contacts.bulkWrite(ops, { ordered: false });
    if (res.modifiedCount === held.length) return;
    const rows = await this.contacts
      .find({ id: { $in: held.map((h) => h.c.id) } }, { projection: { _id: 0, id: 1, step: 1 } })
      .toArray();
    const stepOf = new Map(rows.map((r) => [r.id, r.step]));
    for (const h of held) {
      if (stepOf.get(h.c.id) !== h.c.step) continue;
      h.nextAt = null;
      await this.recordStopped(h.c, at, !!h.sent);
    }
  }

  /** Stopped while we were sending: keep that status and next_at, only record the step (and the message). */
  private async recordStopped(c: ContactDoc, at: Date, sent: boolean): Promise<void> {
    await this.swap(
      { id: c.id, step: c.step },
      {
        $set: { step: c.step + 1, updated_at: at, ...(sent ? { last_sent_at: at } : {}) },
        ...(sent ? { $inc: { sent_count: 1 } } : {}),
      },
    );
    // A STOP during the first send marked it abandoned, yet the message went out.
    if (sent) await this.swap({ id: c.id, status: 'abandoned' }, { $set: { status: 'sent' } });
  }

  private logOf(h: Held, status: SmsLogStatus, extra: Partial<LogDoc>): Omit<LogDoc, 'id'> {
    return this.logs.fields(h.c, h.tpl!, h.message!, status, extra);
  }

  private templatesOf(campaignId: number): Promise<TemplateDoc[]> {
    return this.recent.get(`templates:${campaignId}`, () =>
      this.Template.find({ campaign_id: campaignId, active: true })
        .sort({ sequence_order: 1, id: 1 })
        .lean<TemplateDoc[]>(),
    );
  }

  /**
   * One contact's step after its lease was taken, one round trip at a time: the path of the contacts a burst does
   * not fit (an attempt interrupted between its claim and its log, a claim that raced us).
   */
  private async stepTaken(c: ContactDoc, lease: Date, cfg: TwilioConfig, now: Date): Promise<StepOutcome> {
    const ref = c.id;
    const finish = async (set: Partial<ContactDoc>, sent = false) => {
      const at = this.deps.now();
      // Still ours only while next_at is our lease: a purchase or STOP meanwhile cleared it, and wins.
      const ours = await this.swap(
        { id: ref, step: c.step, next_at: lease, status: { $in: [...OPEN_STATUSES] } },
        {
          $set: { ...set, step: c.step + 1, updated_at: at },
          $unset: { lease_by: '' },
          ...(sent ? { $inc: { sent_count: 1 } } : {}),
        },
      );
      if (!ours) await this.recordStopped(c, at, sent);
    };
    const endWithout = (reason: StepOutcome, status?: ContactDoc['status']) =>
      finish({ next_at: null, status: status ?? (c.step === 0 && c.status === 'pending' ? 'abandoned' : c.status) }).then(
        () => reason,
      );

    const integration = c.integration_id
      ? await this.recent.get(`integration:${c.integration_id}`, () =>
          this.Integration.findOne({ id: c.integration_id }).lean<IntegrationDoc>(),
        )
      : null;
    if (!integration || !integration.active) return endWithout('stopped');
    if (await this.OptOut.exists(optOutFilter(c.phone))) return endWithout('stopped', 'opted_out');
    const campaign = await this.recent.get(`campaign:${integration.id}:${integration.sms_campaign_id}`, () =>
      this.campaignOf(integration),
    );
    if (!campaign || !campaign.active) return endWithout('finished');
    const templates = await this.templatesOf(campaign.id);
    const claims = await this.claimsOf(ref, c.step);
    // A claim for the step we are on: an attempt died between its claim and its bookkeeping (we hold the lease, so
    // nobody else is at it). Whether its message went out is for the provider to say.
    const interrupted = claims.find((s) => s.step === c.step);
    if (interrupted) {
      const claimed =
        templates.find((t) => t.id === interrupted.template_id) ??
        (await this.Template.findOne({ id: interrupted.template_id }).lean<TemplateDoc>());
      const settled = await this.settleInterrupted(c, interrupted, claimed, integration.checkout_fallback_url ?? null);
      if (settled === 'unknown') return 'busy';
      if (settled === 'not_sent') claims.splice(claims.indexOf(interrupted), 1);
      if (settled === 'sent') {
        // Recorded as that step's send; the sequence goes on as after any send.
        const left = templates.filter((t) => !claims.some((s) => s.template_id === t.id));
        const sentAt = interrupted.claimed_at;
        const nextAt = left[0] ? new Date(sentAt.getTime() + left[0].delay_minutes * this.deps.delayUnitMs) : null;
        await finish({ status: 'sent', last_sent_at: sentAt, next_at: nextAt }, true);
        if (nextAt) await this.deps.scheduler.schedule(ref, nextAt).catch(() => undefined);
        return 'sent';
      }
    }
    const done = new Set(claims.map((s) => s.template_id));
    const pending = templates.filter((t) => !done.has(t.id));
    const tpl = pending[0];
    if (!tpl) return endWithout('finished');
    const following = pending[1];

    const link = c.checkout_url || integration.checkout_fallback_url || null;
    const message = renderSmsTemplate(tpl.message, { first_name: c.first_name, checkout_url: link });
    const noLink = !link && usesCheckoutLink(tpl.message);
    const log = (status: SmsLogStatus, extra: Partial<LogDoc> = {}) =>
      this.logs.writeOne({ c, tpl, message, status, ...extra });

    if (isTollFree(c.phone)) {
      await log('blocked_toll_free', { error_message: 'Toll-free numbers cannot receive SMS' });
      return endWithout('blocked_toll_free');
    }

    if (!(await this.ownsPhone(integration.id, c))) {
      await log('skipped_duplicate', {
        error_message: 'Phone already messaged for another contact of this integration',
      });
      await finish({ next_at: null, status: 'skipped_duplicate' });
      return 'skipped_duplicate';
    }

    // A purchase or STOP may have landed since the contact was read: look again right before sending.
    const fresh = await this.Contact.findOne({ id: ref }, { status: 1 }).lean<Pick<ContactDoc, 'status'>>();
    if (!fresh || !isOpen(fresh.status)) return 'stopped';
    if (await this.OptOut.exists(optOutFilter(c.phone))) return endWithout('stopped', 'opted_out');

    // The sender's pace: a slot within half the lease, else back to waiting until the sender has room.
    let slot: Date | undefined;
    if (this.deps.pacer && !noLink) {
      const until = new Date(now.getTime() + (this.deps.leaseMs ?? DEFAULT_LEASE_MS) / 2);
      const { slots, nextFree } = await this.deps.pacer.reserve(senderOf(cfg), 1, until);
      if (!slots[0]) {
        if (await this.swap({ id: ref, step: c.step, next_at: lease }, { $set: { next_at: nextFree } }))
          await this.deps.scheduler.schedule(ref, nextFree).catch(() => undefined);
        return 'paced';
      }
      slot = slots[0];
    }

    // Claim (contact, template) and (contact, step) right before the provider call: a claimed template is never
    // sent again (a process killed between the claim and the call leaves the claim, which the next attempt
    // settles with the provider above).
    try {
      await this.SendClaim.create({ contact_ref: ref, template_id: tpl.id, step: c.step, claimed_at: now });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // This step number already belongs to another template: a process died after claiming (and maybe sending)
      // it, before recording the step. Count the step as done so the sequence goes on with this template next
      // time, instead of failing on the same step claim at every lease forever.
      const prior = await this.SendClaim.findOne({ contact_ref: ref, step: c.step }, { template_id: 1 }).lean();
      if (prior && prior.template_id !== tpl.id) await finish({ next_at: this.deps.now() });
      return 'busy';
    }
    if (noLink) {
      await log('skipped_no_link', { error_message: NO_CHECKOUT_LINK });
      const nextAt = following ? new Date(this.deps.now().getTime() + following.delay_minutes * this.deps.delayUnitMs) : null;
      await finish({ next_at: nextAt, status: nextAt || c.step > 0 || c.status !== 'pending' ? c.status : 'abandoned' });
      if (nextAt) await this.deps.scheduler.schedule(ref, nextAt).catch(() => undefined);
      return 'skipped_no_link';
    }
    let sent;
    if (slot) await sleepUntil(slot, this.deps.now);
    if (this.deps.now().getTime() > lastCallAt(lease).getTime()) {
      await this.SendClaim.deleteOne({ contact_ref: ref, template_id: tpl.id, step: c.step });
      return 'busy';
    }
    try {
      sent = await this.deps.provider.send({
        to: c.phone,
        body: message,
        messagingServiceSid: cfg.messaging_service_sid || undefined,
        from: cfg.phone_number || undefined,
        statusCallback: statusCallbackUrl(cfg, this.deps.publicUrl),
        notAfter: lastCallAt(lease),
        ...this.paced(cfg),
      });
    } catch (err) {
      const msg = sendFailureMessage(err);
      const optedOut = await this.optOutOnRefusal(c.phone, err);
      await log('failed', { error_message: msg });
      await finish({
        next_at: null,
        status: optedOut ? 'opted_out' : 'error',
      });
      this.deps.logger.warn({ contact: ref, err: msg }, 'SMS send failed');
      return 'failed';
    }
    await log(logStatusFromTwilio(sent.status) ?? 'queued', { message_sid: sent.sid });
    const sentAt = this.deps.now();
    observeLateness(c.next_at, sentAt);
    const nextAt = following ? new Date(sentAt.getTime() + following.delay_minutes * this.deps.delayUnitMs) : null;
    await finish({ status: 'sent', last_sent_at: sentAt, next_at: nextAt }, true);
    if (nextAt) await this.deps.scheduler.schedule(ref, nextAt).catch(() => undefined);
    return 'sent';
  }

  /**
   * After a crash between a step's claim and its log: asks the provider whether the message went out. 'sent': it
   * did, and is logged now; 'not_sent': it did not, and the claim is removed so it is sent now; 'unknown': the
   * provider did not answer, or the claiming attempt may still be sending (try again after the lease); 'assumed':
   * no way to ask, the claim counts as sent (at
   * most once, as before).
   */
  private async settleInterrupted(
    c: ContactDoc,
    claim: { _id: unknown; claimed_at: Date },
    tpl: TemplateDoc | null,
    fallbackLink: string | null = null,
  ): Promise<'sent' | 'not_sent' | 'unknown' | 'assumed'> {
    const { provider, logger } = this.deps;
    if (!provider.findSent || !tpl) return 'assumed';
    // The attempt that claimed it may still be sending (a burst slowed past its lease, an instance retrying
    // Twilio): asked now, the provider would not have it yet, and sending again would send twice. Judged once no
    // attempt can still be under way.
    if (this.deps.now().getTime() - new Date(claim.claimed_at).getTime() < (this.deps.sendInFlightMs ?? 0)) return 'unknown';
    // The body as it was sent: with the integration's fallback link when the contact had none.
    const message = renderSmsTemplate(tpl.message, { first_name: c.first_name, checkout_url: c.checkout_url || fallbackLink });
    let found;
    try {
      // A minute of margin for the provider's clock.
      found = (await provider.findSent(c.phone, new Date(claim.claimed_at.getTime() - 60_000))).find(
        (m) => m.body === message,
      );
    } catch (err) {
      logger.warn(
        { contact: c.id, err: (err as Error).message },
        'could not ask the provider about an interrupted send',
      );
      return 'unknown';
    }
    if (found) {
      await this.logs.writeOne({
        c,
        tpl,
        message,
        status: logStatusFromTwilio(found.status) ?? 'queued',
        message_sid: found.sid,
      });
      logger.warn({ contact: c.id, template: tpl.id }, 'interrupted send had gone out: logged now');
      return 'sent';
    }
    await this.SendClaim.deleteOne({ _id: claim._id });
    logger.warn({ contact: c.id, template: tpl.id }, 'interrupted send had not gone out: sending it again');
    return 'not_sent';
  }

  /**
   * Compare-and-set on one contact: true when the row matched and was changed. A findOneAndUpdate, not an
   * updateOne: the MongoDB stand-in serves findAndModify from the `id` index whatever else the filter holds, while
   * an update whose filter is not exactly a unique index's keys scans every contact (~30-50 ms at 20,000 contacts,
   * under the collection's lock, twice per step).
   */
  private async swap(filter: Filter<ContactDoc>, update: UpdateFilter<ContactDoc>): Promise<boolean> {
    const collection = this.Contact.collection as unknown as Collection<ContactDoc>;
    return (await collection.findOneAndUpdate(filter, update, { projection: { _id: 1 } })) !== null;
  }

  /**
   * The contact's claims, read by their unique (contact_ref, step) keys: steps 0 to the current one, then on while
   * more follow. (A find by contact_ref alone matches no unique index's keys, and the stand-in scanned every claim
   * ever made, once per step.)
   */
  private async claimsOf(ref: number, step: number): Promise<Claim[]> {
    const one = (i: number) =>
      this.SendClaim.findOne({ contact_ref: ref, step: i }, { template_id: 1, step: 1, claimed_at: 1 }).lean<Claim>();
    // Up to one past the current step in one go (normally nothing is there); on from there only if something was.
    const rows = await Promise.all(Array.from({ length: step + 2 }, (_, i) => one(i)));
    const found = rows.filter((x): x is Claim => x !== null);
    for (let i = step + 2; rows[rows.length - 1] !== null; i++) {
      const next = await one(i);
      if (!next) break;
      found.push(next);
    }
    return found;
  }

  private async campaignOf(integration: IntegrationDoc): Promise<CampaignDoc | null> {
    if (integration.sms_campaign_id) {
      const byId = await this.Campaign.findOne({ id: integration.sms_campaign_id }).lean<CampaignDoc>();
      if (byId) return byId;
    }
    return this.Campaign.findOne({ integration_id: integration.id, active: true }).sort({ id: 1 }).lean<CampaignDoc>();
  }

  /** The first contact of an integration to be messaged on a phone owns it (race-free through a unique index). */
  private async ownsPhone(integrationId: number, c: ContactDoc): Promise<boolean> {
    try {
      await this.PhoneClaim.create({
        integration_id: integrationId,
        phone: c.phone,
        contact_id: c.contact_id,
        claimed_at: this.deps.now(),
      });
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const owner = await this.PhoneClaim.findOne({ integration_id: integrationId, phone: c.phone }).lean();
      return owner?.contact_id === c.contact_id;
    }
  }
}

/** A step's lateness: from when it was due (after any blackout hold moved it) to its hand-off to Twilio. */
function observeLateness(due: Date | null | undefined, sentAt: Date): void {
  if (due) reminderLateness.observe({ channel: 'sms' }, Math.max(0, sentAt.getTime() - new Date(due).getTime()) / 1000);
}

/** The sender Twilio paces by: the messaging service when one is set, else the phone number. */
function senderOf(cfg: TwilioConfig): string {
  return cfg.messaging_service_sid || cfg.phone_number || 'default';
}

function sleepUntil(at: Date, now: () => Date): Promise<void> {
  const ms = at.getTime() - now().getTime();
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/**
 * The last moment a Twilio call for a step may start: its lease's end. A call then ends within its timeout, so one
 * lease plus one call's timeout after the claim nothing of it can still be under way (SMS_SEND_IN_FLIGHT_MS).
 */
function lastCallAt(lease: Date): Date {
  return lease;
}
