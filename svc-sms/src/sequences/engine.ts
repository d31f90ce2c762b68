import type { Connection } from 'mongoose';
import type { Collection, Filter, UpdateFilter } from 'mongodb';
import { createIdAllocator, isDuplicateKeyError, type Logger } from '@act/service-kit';
import { isTollFree, renderSmsTemplate, type SmsLogStatus } from '@act/contracts/src/sms-api';
import { contactModel, optOutModel, type ContactDoc } from '../contacts/model';
import { OPEN_STATUSES, type SequenceScheduler } from '../contacts/service';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { campaignModel, type CampaignDoc } from '../campaigns/model';
import { templateModel, type TemplateDoc } from '../templates/model';
import { logModel, type LogDoc } from '../logs/model';
import { phoneClaimModel, sendClaimModel, type SendClaimDoc } from './model';
import { blackoutEnd } from '../blackout/blackout';
import { blackoutWindowOf, statusCallbackUrl, type ProviderConfigService } from '../provider/config';
import { logStatusFromTwilio } from '../provider/twilio';
import type { SmsProvider } from '../provider/types';
import type { Clock } from '../settings';

/**
 * A step in flight holds the contact for this long (next_at is moved to now + lease). Longer than any provider
 * call (15 s timeout), so a slow send is never taken over; a crashed sender's step is resumed after it.
 * SMS_STEP_LEASE_MS overrides it (the fault suite resumes a killed instance's steps after 20 s).
 */
export const DEFAULT_LEASE_MS = 5 * 60_000;

/** A (contact, template, step) claim as read back, with its _id (an interrupted one is deleted by it). */
type Claim = SendClaimDoc & { _id: unknown };

export type StepOutcome =
  | 'not_due'
  | 'busy'
  | 'not_configured'
  | 'held_for_blackout'
  | 'sent'
  | 'failed'
  | 'skipped_duplicate'
  | 'blocked_toll_free'
  | 'stopped'
  | 'finished';

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
   * (SMS_RULES_CACHE_MS; 0: every step reads them). Under a burst of due contacts they were four of its round trips.
   */
  rulesCacheMs?: number;
  publicUrl: string;
  logger: Logger;
}

/**
 * Sends each contact's campaign, one template per step, in sequence_order: the first at remind_at, each next one
 * delay_minutes after the previous send. Every rule is checked right before each send (purchase, opt-out,
 * blackout, toll-free, duplicate phone). Safe with any number of instances: a step is taken with a
 * compare-and-set on the contact (next_at and step as read), and the (contact, template) and (contact, step)
 * claims are inserted before Twilio is called, so a message goes out at most once.
 */
export class SequenceEngine {
  private readonly Contact;
  private readonly OptOut;
  private readonly Integration;
  private readonly Campaign;
  private readonly Template;
  private readonly Log;
  private readonly SendClaim;
  private readonly PhoneClaim;
  private readonly allocLogId;
  private readonly inFlight = new Set<number>();
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: SequenceEngineDeps) {
    const { conn } = deps;
    this.Contact = contactModel(conn);
    this.OptOut = optOutModel(conn);
    this.Integration = integrationModel(conn);
    this.Campaign = campaignModel(conn);
    this.Template = templateModel(conn);
    this.Log = logModel(conn);
    this.SendClaim = sendClaimModel(conn);
    this.PhoneClaim = phoneClaimModel(conn);
    this.allocLogId = createIdAllocator(conn, 'sms_logs', 50);
  }

  /** Looks at every due contact now (the periodic scan and the Agenda sweep both call this). */
  async sweep(limit = 200): Promise<number> {
    const now = this.deps.now();
    const due = await this.Contact.find({ next_at: { $lte: now }, status: { $in: OPEN_STATUSES } }, { id: 1 })
      .sort({ next_at: 1 })
      .limit(limit)
      .lean<{ id: number }[]>();
    if (due.length === 0) return 0;
    // Held, not dropped: without credentials or a sender nothing can go out, and the contacts wait for them.
    const cfg = this.deps.provider.configured ? await this.cached('config', () => this.deps.config.get()) : null;
    if (!cfg || (!cfg.messaging_service_sid && !cfg.phone_number)) {
      this.warnNotConfigured(due.length);
      return 0;
    }
    let handled = 0;
    const queue = due.map((d) => d.id);
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const outcome = await this.processContact(id).catch((err) => {
          this.deps.logger.error({ err: (err as Error).message, contact: id }, 'SMS step failed');
          return 'busy' as const;
        });
        if (outcome !== 'busy' && outcome !== 'not_due') handled++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(5, queue.length) }, worker));
    return handled;
  }

  /** One step of one contact's sequence, if it is due. */
  async processContact(ref: number): Promise<StepOutcome> {
    if (this.inFlight.has(ref)) return 'busy';
    this.inFlight.add(ref);
    try {
      return await this.step(ref);
    } finally {
      this.inFlight.delete(ref);
    }
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

  private async step(ref: number): Promise<StepOutcome> {
    const now = this.deps.now();
    const c = await this.Contact.findOne({ id: ref }).lean<ContactDoc>();
    if (
      !c ||
      !(OPEN_STATUSES as readonly string[]).includes(c.status) ||
      !c.next_at ||
      c.next_at.getTime() > now.getTime()
    )
      return 'not_due';
    if (!this.deps.provider.configured) {
      this.warnNotConfigured(1);
      return 'not_configured';
    }
    const cfg = await this.cached('config', () => this.deps.config.get());
    if (!cfg.messaging_service_sid && !cfg.phone_number) {
      this.warnNotConfigured(1);
      return 'not_configured';
    }

    // Quiet hours: move the step to the window's end (never drop it).
    const end = blackoutEnd(now, blackoutWindowOf(cfg));
    if (end) {
      const moved = await this.swap(
        { id: ref, step: c.step, next_at: c.next_at, status: { $in: [...OPEN_STATUSES] } },
        { $set: { next_at: end, updated_at: now } },
      );
      if (!moved) return 'busy';
      await this.deps.scheduler.schedule(ref, end).catch(() => undefined);
      return 'held_for_blackout';
    }

    // Take the step: compare-and-set on what we read. A second instance reading the same row fails here.
    const lease = new Date(now.getTime() + (this.deps.leaseMs ?? DEFAULT_LEASE_MS));
    const taken = await this.swap(
      { id: ref, step: c.step, next_at: c.next_at, status: { $in: [...OPEN_STATUSES] } },
      { $set: { next_at: lease } },
    );
    if (!taken) return 'busy';

    const finish = async (set: Partial<ContactDoc>, sent = false) => {
      const at = this.deps.now();
      // Still ours only while next_at is our lease: a purchase or STOP meanwhile cleared it, and wins.
      const ours = await this.swap(
        { id: ref, step: c.step, next_at: lease, status: { $in: [...OPEN_STATUSES] } },
        { $set: { ...set, step: c.step + 1, updated_at: at }, ...(sent ? { $inc: { sent_count: 1 } } : {}) },
      );
      if (!ours) {
        // Stopped while we were sending: keep that status and next_at, only record the step (and the message).
        await this.swap(
          { id: ref, step: c.step },
          {
            $set: { step: c.step + 1, updated_at: at, ...(sent ? { last_sent_at: at } : {}) },
            ...(sent ? { $inc: { sent_count: 1 } } : {}),
          },
        );
        // A STOP during the first send marked it abandoned, yet the message went out.
        if (sent) await this.swap({ id: ref, status: 'abandoned' }, { $set: { status: 'sent' } });
      }
    };
    const endWithout = (reason: StepOutcome) =>
      finish({ next_at: null, status: c.step === 0 && c.status === 'pending' ? 'abandoned' : c.status }).then(
        () => reason,
      );

    const integration = c.integration_id
      ? await this.cached(`integration:${c.integration_id}`, () =>
          this.Integration.findOne({ id: c.integration_id }).lean<IntegrationDoc>(),
        )
      : null;
    if (!integration || !integration.active) return endWithout('stopped');
    if (await this.OptOut.exists({ phone: c.phone })) return endWithout('stopped');
    const campaign = await this.cached(`campaign:${integration.id}:${integration.sms_campaign_id}`, () =>
      this.campaignOf(integration),
    );
    if (!campaign || !campaign.active) return endWithout('finished');
    const templates = await this.cached(`templates:${campaign.id}`, () =>
      this.Template.find({ campaign_id: campaign.id, active: true })
        .sort({ sequence_order: 1, id: 1 })
        .lean<TemplateDoc[]>(),
    );
    const claims = await this.claimsOf(ref, c.step);
    // A claim for the step we are on: an attempt died between its claim and its bookkeeping (we hold the lease, so
    // nobody else is at it). Whether its message went out is for the provider to say.
    const interrupted = claims.find((s) => s.step === c.step);
    if (interrupted) {
      const claimed =
        templates.find((t) => t.id === interrupted.template_id) ??
        (await this.Template.findOne({ id: interrupted.template_id }).lean<TemplateDoc>());
      const settled = await this.settleInterrupted(c, interrupted, claimed);
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

    const message = renderSmsTemplate(tpl.message, { first_name: c.first_name, checkout_url: c.checkout_url });
    const log = (status: SmsLogStatus, extra: Partial<LogDoc> = {}) =>
      this.writeLog({ c, tpl, message, status, ...extra });

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
    if (!fresh || !(OPEN_STATUSES as readonly string[]).includes(fresh.status)) return 'stopped';
    if (await this.OptOut.exists({ phone: c.phone })) return endWithout('stopped');

    // Claim (contact, template) and (contact, step) right before the provider call: a claimed template is never
    // sent again, so a process killed between the claim and the call loses that message. Nothing else may come
    // between them (the checks above used to, and a SIGKILL there lost messages).
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
    let sent;
    try {
      sent = await this.deps.provider.send({
        to: c.phone,
        body: message,
        messagingServiceSid: cfg.messaging_service_sid || undefined,
        from: cfg.phone_number || undefined,
        statusCallback: statusCallbackUrl(cfg, this.deps.publicUrl),
      });
    } catch (err) {
      const msg = (err as Error).message || 'Send failed';
      await log('failed', { error_message: msg });
      await finish({ next_at: null, status: 'error' });
      this.deps.logger.warn({ contact: ref, err: msg }, 'SMS send failed');
      return 'failed';
    }
    await log(logStatusFromTwilio(sent.status) ?? 'queued', { message_sid: sent.sid });
    const sentAt = this.deps.now();
    const nextAt = following ? new Date(sentAt.getTime() + following.delay_minutes * this.deps.delayUnitMs) : null;
    await finish({ status: 'sent', last_sent_at: sentAt, next_at: nextAt }, true);
    if (nextAt) await this.deps.scheduler.schedule(ref, nextAt).catch(() => undefined);
    return 'sent';
  }

  /**
   * After a crash between a step's claim and its log: asks the provider whether the message went out. 'sent': it
   * did, and is logged now; 'not_sent': it did not, and the claim is removed so it is sent now; 'unknown': the
   * provider did not answer (try again after the lease); 'assumed': no way to ask, the claim counts as sent (at
   * most once, as before).
   */
  private async settleInterrupted(
    c: ContactDoc,
    claim: { _id: unknown; claimed_at: Date },
    tpl: TemplateDoc | null,
  ): Promise<'sent' | 'not_sent' | 'unknown' | 'assumed'> {
    const { provider, logger } = this.deps;
    if (!provider.findSent || !tpl) return 'assumed';
    const message = renderSmsTemplate(tpl.message, { first_name: c.first_name, checkout_url: c.checkout_url });
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
      await this.writeLog({
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

  private readonly memo = new Map<string, { at: number; value: Promise<unknown> }>();

  /** `load()`, shared with the steps that asked for the same key within the last `rulesCacheMs`. */
  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const ttl = this.deps.rulesCacheMs ?? 0;
    if (ttl <= 0) return load();
    const now = Date.now();
    const hit = this.memo.get(key);
    if (hit && now - hit.at < ttl) return hit.value as Promise<T>;
    if (this.memo.size > 1_000) this.memo.clear();
    // A real promise: a mongoose query is a thenable that runs again (and throws) on a second `then`.
    const value = Promise.resolve(load());
    this.memo.set(key, { at: now, value });
    value.catch(() => this.memo.delete(key));
    return value;
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

  private async writeLog({
    c,
    tpl,
    message,
    status,
    ...extra
  }: { c: ContactDoc; tpl: TemplateDoc; message: string; status: SmsLogStatus } & Partial<LogDoc>) {
    const at = this.deps.now();
    await this.Log.create({
      id: await this.allocLogId(),
      phone: c.phone,
      contact_id: c.contact_id,
      contact_ref: c.id,
      integration_id: c.integration_id,
      template_id: tpl.id,
      message,
      sequence_order: tpl.sequence_order,
      status,
      message_sid: null,
      timestamp: at,
      updated_at: at,
      error_message: null,
      ...extra,
    });
  }
}
