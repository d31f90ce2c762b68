import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { NO_CHECKOUT_LINK_MESSAGE } from '@act/contracts/src/checkout-link';
import { cartChangedAt } from '@act/contracts/src/cart';
import { linkAt } from './contact-link';
import {
  isTollFree,
  usesCheckoutLink,
  type SmsLogStatus,
  type TwilioConfig,
} from '@act/contracts/src/sms-api';
import { countdown, eachReleasing, insertAll, nextStepAt, pendingSteps, step, type BurstContext, type FlowStep, type RecentReads, type TouchReader } from '@act/flow';
import { applyCodeToRecoveryUrl, reminderLateness, stepKey, type Incentives, type Logger } from '@act/service-kit';
import { incentiveLogNote, smsIncentiveStep } from '../incentives/step';
import { optOutOnRefusal, sendFailureMessage } from '../provider/refusals';
import { optOutKeys, optOutModel, type ContactDoc, type OptOutDoc } from '../contacts/model';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { campaignModel, type CampaignDoc } from '../campaigns/model';
import { templateModel, type TemplateDoc } from '../templates/model';
import type { LogDoc } from '../logs/model';
import type { SequenceScheduler } from '../contacts/service';
import { statusCallbackUrl } from '../provider/config';
import { logStatusFromTwilio } from '../provider/twilio';
import type { SenderPacer } from '../provider/pacing';
import type { OutgoingSms, SentSms, SmsProvider } from '../provider/types';
import { phoneClaimModel, sendClaimModel, type PhoneClaimDoc, type SendClaimDoc } from './model';
import { isOpen, type ContactSteps } from './store';
import type { StepLogs } from './step-logs';
import { smsExperimentStep, smsVariantDelayStep, withEarliestDelays } from './experiment';
import { smsTiming } from './timing';
import { smsCartChange } from './cart-change';
import { smsCompletedElsewhere } from './completed-elsewhere';
import { smsPriorityExit } from './priority-exit';
import { smsBody } from './body';
import type { Claim, SmsWork, StepOutcome } from './work';
import type { SmsTrackedLinks } from '../links';

export type { SmsWork, StepOutcome } from './work';

/** Logged instead of a message with an empty link. */
export const NO_CHECKOUT_LINK = NO_CHECKOUT_LINK_MESSAGE;
/** Logged instead of a message whose contact's own link (the sender's recovery link) has expired, with no fallback. */
export const RECOVERY_LINK_EXPIRED = 'Skipped: recovery link expired (and the integration has no fallback link)';

/** Provider calls at once within a burst for an engine without a sender pace. */
export const DEFAULT_SEND_CONCURRENCY = 32;


export interface SmsStepsDeps {
  conn: Connection;
  store: ContactSteps;
  logs: StepLogs;
  recent: RecentReads;
  provider: SmsProvider;
  scheduler: SequenceScheduler;
  pacer?: Pick<SenderPacer, 'reserve' | 'retrySlot' | 'refund'>;
  now: () => Date;
  delayUnitMs: number;
  leaseMs: number;
  sendInFlightMs: number;
  publicUrl: string;
  logger: Logger;
  /** The person's sends on both channels (the attribution ledger), for the frequency cap; absent: no cap. */
  readTouches?: TouchReader;
  /** Each step's code for the shopper (none, fixed, pool, created in the shop); absent: no codes. */
  incentives?: Incentives;
  /** Our redirect links (links/), put in before the claim when the operator tracks clicks; absent: none. */
  trackedLinks?: SmsTrackedLinks;
}

type Step = FlowStep<SmsWork, TwilioConfig>;

/** The sender Twilio paces by: the messaging service when one is set, else the phone number. */
export function senderOf(cfg: TwilioConfig): string {
  return cfg.messaging_service_sid || cfg.phone_number || 'default';
}

/**
 * The SMS flow's steps, in order: who may still be messaged (integration, opt-out), which template is next (claims
 * of earlier steps, an interrupted send settled with the provider, toll-free), who owns a phone, a last look right
 * before sending, the sender's pace, the (contact, step) claim, and the send. Each decides for some contacts and
 * leaves the rest to the next.
 */
export class SmsSteps {
  private readonly OptOut;
  private readonly Integration;
  private readonly Campaign;
  private readonly Template;
  private readonly SendClaim;
  private readonly PhoneClaim;

  constructor(private readonly deps: SmsStepsDeps) {
    const { conn } = deps;
    this.OptOut = optOutModel(conn);
    this.Integration = integrationModel(conn);
    this.Campaign = campaignModel(conn);
    this.Template = templateModel(conn);
    this.SendClaim = sendClaimModel(conn);
    this.PhoneClaim = phoneClaimModel(conn);
  }

  get all(): Step[] {
    return [
      step('audience', (open) => this.audience(open)),
      step('template', (open) => this.template(open)),
      step('settle', (open) => this.settle(open)),
      smsCompletedElsewhere({ contacts: this.deps.store.contacts, logs: this.deps.logs, logger: this.deps.logger }),
      smsCartChange(this.SendClaim.collection as unknown as Collection<SendClaimDoc>, this.deps.logs, this.deps.logger),
      smsPriorityExit({ contacts: this.deps.store.contacts, campaignOf: (id) => this.campaignOfIntegration(id), logs: this.deps.logs, logger: this.deps.logger }),
      smsExperimentStep({ contacts: this.deps.store.contacts, logs: this.deps.logs, now: this.deps.now, delayUnitMs: this.deps.delayUnitMs }),
      smsVariantDelayStep({ store: this.deps.store, scheduler: this.deps.scheduler }),
      step('message', (open, ctx) => this.message(open, ctx)),
      smsTiming(this.deps.readTouches),
      step('phone owner', (open) => this.phoneOwners(open)),
      step('last look', (open, ctx) => this.lastLook(open, ctx)),
      ...(this.deps.incentives ? [smsIncentiveStep(this.deps.incentives, { store: this.deps.store, scheduler: this.deps.scheduler })] : []),
      step('pace', (open, ctx) => this.pace(open, ctx)),
      ...(this.deps.trackedLinks ? [this.deps.trackedLinks.step()] : []),
      step('claim', (open, ctx) => this.claim(open, ctx)),
      step('send', (open, ctx) => this.send(open, ctx)),
    ];
  }

  /** The step ends the sequence: nothing more to send (the first step's pending contact becomes abandoned). */
  private end(w: SmsWork, outcome: StepOutcome, status?: ContactDoc['status']): void {
    w.outcome = outcome;
    w.set = { next_at: null, status: status ?? (w.c.step === 0 && w.c.status === 'pending' ? 'abandoned' : w.c.status) };
  }

  /** The integration is active and the phone has not replied STOP. */
  private async audience(open: SmsWork[]): Promise<void> {
    for (const w of open) {
      const id = w.c.integration_id;
      const integration = id
        ? await this.deps.recent.get(`integration:${id}`, () => this.Integration.findOne({ id }).lean<IntegrationDoc>())
        : null;
      if (!integration || !integration.active) this.end(w, 'stopped');
      else if (w.c.reminders_held || w.c.test === true) this.hold(w);
      else w.integration = integration;
    }
    const live = open.filter((w) => !w.outcome);
    const optedOut = await this.optedOut(live.map((w) => w.c.phone));
    for (const w of live) if (optedOut.has(w.c.phone)) this.end(w, 'stopped', 'opted_out');
  }

  /**
   * No message for a contact whose reminders are held (the shopper declined promotional messages) nor for a test
   * delivery's contact (its stored flag): the sequence ends, nothing is counted as sent, and the service log says why.
   */
  private hold(w: SmsWork): void {
    const reason = w.c.reminders_held || 'test delivery';
    this.deps.logger.info({ contact: w.c.id, reason }, 'SMS sequence held: no message');
    this.end(w, 'held');
  }

  /**
   * The campaign's active templates, and the contact's claims of earlier steps (one read for the burst). A contact no
   * burst ever took (at its first step, no lease id as read) has none: claims are made under a lease only. It is
   * left out of the read, so the burst of a minute's new contacts reads no claim (on the MongoDB stand-in, which
   * serves `contact_ref` by no index of its own, each such read went through every claim). A claim missed anyway
   * is still the one the claim step's unique index refuses a second of.
   */
  private async template(open: SmsWork[]): Promise<void> {
    const taken = open.filter((w) => w.c.step > 0 || w.c.lease_id != null).map((w) => w.c.id);
    const rows = taken.length
      ? await (this.SendClaim.collection as unknown as Collection<Claim>)
          .find({ contact_ref: { $in: taken } }, { projection: { contact_ref: 1, template_id: 1, step: 1, claimed_at: 1 } })
          .toArray()
      : [];
    const claims = new Map<number, Claim[]>();
    for (const r of rows) claims.set(r.contact_ref, [...(claims.get(r.contact_ref) ?? []), r]);
    for (const w of open) {
      const integration = w.integration!;
      const campaign = await this.deps.recent.get(`campaign:${integration.id}:${integration.sms_campaign_id}`, () =>
        this.campaignOf(integration),
      );
      if (!campaign || !campaign.active) {
        this.end(w, 'finished');
        continue;
      }
      w.campaign = campaign;
      // A step with variants is looked at after the earliest variant's delay (experiment.ts).
      w.templates = withEarliestDelays(await this.templatesOf(campaign.id), campaign.experiment);
      w.claims = claims.get(w.c.id) ?? [];
    }
  }

  /**
   * A claim for the step a contact is on: an attempt died between its claim and its bookkeeping (we hold the lease,
   * so nobody else is at it), or is still sending. Whether its message went out is for the provider to say.
   */
  private async settle(open: SmsWork[]): Promise<void> {
    await eachReleasing(
      open.filter((w) => w.claims!.some((s) => s.step === w.c.step)),
      4,
      async (w) => {
        const interrupted = w.claims!.find((s) => s.step === w.c.step)!;
        const claimed =
          w.templates!.find((t) => t.id === interrupted.template_id) ??
          (await this.Template.findOne({ id: interrupted.template_id }).lean<TemplateDoc>());
        const settled = await this.settleInterrupted(w, interrupted, claimed);
        // Not judged yet: the step keeps its lease, and is looked at again when that runs out.
        if (settled === 'unknown') w.outcome = 'busy';
        if (settled === 'not_sent') w.claims!.splice(w.claims!.indexOf(interrupted), 1);
        if (settled === 'sent') {
          // Recorded as that step's send; the sequence goes on as after any send.
          const { current } = pendingSteps(w.templates!, (t) => w.claims!.some((s) => s.template_id === t.id));
          const sentAt = interrupted.claimed_at;
          w.nextAt = nextStepAt(sentAt, current && { delay: current.delay_minutes }, this.deps.delayUnitMs);
          w.outcome = 'sent';
          w.sent = true;
          w.set = { status: 'sent', last_sent_at: sentAt, last_sent_cart_at: cartChangedAt(w.c.cart), next_at: w.nextAt };
        }
      },
    );
  }

  /** The next template, its text for this contact, and the rules on the number itself (toll-free). */
  private async message(open: SmsWork[], ctx: BurstContext<TwilioConfig>): Promise<void> {
    for (const w of open) {
      const { current, following } = pendingSteps(w.templates!, (t) => w.claims!.some((s) => s.template_id === t.id));
      if (!current) {
        this.end(w, 'finished');
        continue;
      }
      w.tpl = current;
      w.following = following;
      // Past the sender's recovery deadline the contact's own link no longer works: only the fallback may stand in.
      const { link, expired } = linkAt(w.c, w.integration!, ctx.now);
      const text = w.variant?.content ?? current.message;
      w.message = smsBody(text, w.c, link).message;
      w.link = link;
      w.noLink = !link && usesCheckoutLink(text);
      if (w.noLink && expired) w.noLinkReason = RECOVERY_LINK_EXPIRED;
      if (isTollFree(w.c.phone)) {
        w.log = this.logOf(w, 'blocked_toll_free', { error_message: 'Toll-free numbers cannot receive SMS' });
        this.end(w, 'blocked_toll_free');
      }
    }
  }

  /**
   * The first contact of an integration to be messaged on a phone owns it, race-free through the unique index: one
   * insert for the burst; a refused row reads its owner. Any other contact on that phone is skipped.
   */
  private async phoneOwners(open: SmsWork[]): Promise<void> {
    const at = this.deps.now();
    const rows: PhoneClaimDoc[] = open.map((w) => ({
      integration_id: w.integration!.id,
      phone: w.c.phone,
      contact_id: w.c.contact_id,
      claimed_at: at,
    }));
    const refused = new Set(await insertAll(this.PhoneClaim.collection as unknown as Collection<PhoneClaimDoc>, rows));
    await Promise.all(
      open.map(async (w, i) => {
        if (!refused.has(i)) return;
        const owner = await this.PhoneClaim.findOne({ integration_id: rows[i]!.integration_id, phone: w.c.phone }).lean<PhoneClaimDoc>();
        if (owner?.contact_id === w.c.contact_id) return;
        w.log = this.logOf(w, 'skipped_duplicate', { error_message: 'Phone already messaged for another contact of this integration' });
        w.outcome = 'skipped_duplicate';
        w.set = { next_at: null, status: 'skipped_duplicate' };
      }),
    );
  }

  /** A purchase or STOP may have landed since the contacts were read: look again right before sending. */
  private async lastLook(open: SmsWork[], ctx: BurstContext<TwilioConfig>): Promise<void> {
    const fresh = await this.deps.store.fresh(open.map((w) => w.c.id));
    for (const w of open) {
      const f = fresh.get(w.c.id);
      // Stopped meanwhile: the purchase or STOP wrote the contact; nothing to add.
      if (!f || !isOpen(f.status)) w.outcome = 'stopped';
      // The lease ran out and another attempt holds the step now.
      else if (f.lease_id !== ctx.leaseId) w.outcome = 'busy';
    }
    const live = open.filter((w) => !w.outcome);
    const optedOut = await this.optedOut(live.map((w) => w.c.phone));
    for (const w of live) if (optedOut.has(w.c.phone)) this.end(w, 'stopped', 'opted_out');
  }

  /**
   * Slots at the sender's rate, shared by every instance, no later than half the lease: those that fit wait for
   * their slot before the provider call; the rest go back to waiting (next_at = the sender's next free second, their
   * lease given up), so a slow sender never holds steps past their lease.
   */
  private async pace(open: SmsWork[], ctx: BurstContext<TwilioConfig>): Promise<void> {
    const toSend = open.filter((w) => !w.noLink);
    if (!this.deps.pacer || toSend.length === 0) return;
    const until = new Date(ctx.now.getTime() + this.deps.leaseMs / 2);
    const { slots, nextFree } = await this.deps.pacer.reserve(senderOf(ctx.settings), toSend.length, until);
    toSend.forEach((w, i) => (w.slot = slots[i]));
    const left = toSend.slice(slots.length);
    if (left.length === 0) return;
    for (const w of left) w.outcome = 'paced';
    const changed = await this.deps.store.putOff(ctx, left.map((w) => ({ c: w.c, update: { $set: { next_at: nextFree } } })));
    await Promise.all([...changed].map((id) => this.deps.scheduler.schedule(id, nextFree).catch(() => undefined)));
  }

  /**
   * Claims (contact, template) and (contact, step) right before the provider calls: a claimed template is never
   * sent again (a process killed between the claim and the call leaves the claim, which the next attempt settles
   * with the provider). A claim already there was made by an attempt that raced this one: the step is left to
   * the lease, and settled once it runs out.
   */
  private async claim(open: SmsWork[], ctx: BurstContext<TwilioConfig>): Promise<void> {
    const rows: SendClaimDoc[] = open.map((w) => ({ contact_ref: w.c.id, template_id: w.tpl!.id, step: w.c.step, claimed_at: ctx.now }));
    const refused = await insertAll(this.SendClaim.collection as unknown as Collection<SendClaimDoc>, rows);
    await Promise.all(
      refused.map(async (i) => {
        const w = open[i]!;
        w.outcome = 'busy';
        // This step number already belongs to another template: a process died after claiming (and maybe sending)
        // it, before recording the step. The step counts as done so the sequence goes on with this template next
        // time, instead of failing on the same step claim at every lease.
        const prior = await this.SendClaim.findOne({ contact_ref: w.c.id, step: w.c.step }, { template_id: 1 }).lean();
        if (prior && prior.template_id !== w.tpl!.id) w.set = { next_at: this.deps.now() };
      }),
    );
  }

  /** The provider calls side by side (each at its slot); the burst is released once each has had a first answer. */
  private async send(open: SmsWork[], ctx: BurstContext<TwilioConfig>): Promise<void> {
    const sending = open.filter((w) => !w.noLink);
    for (const w of open.filter((x) => x.noLink)) {
      // Claimed like a send, so the sequence goes on with the next template; nothing with an empty link goes out.
      w.log = this.logOf(w, 'skipped_no_link', { error_message: w.noLinkReason ?? NO_CHECKOUT_LINK });
      w.outcome = 'skipped_no_link';
      w.nextAt = nextStepAt(this.deps.now(), w.following && { delay: w.following.delay_minutes }, this.deps.delayUnitMs);
      w.set = { next_at: w.nextAt, status: w.nextAt || w.c.step > 0 || w.c.status !== 'pending' ? w.c.status : 'abandoned' };
    }
    const firstAnswer = countdown<SmsWork>(sending.length, ctx.release);
    // With a sender pace the slots space the calls, and every message waits for its own at once: with a fixed
    // number of workers, one holding a retry that waits for a slot seconds ahead left the first attempts behind it
    // late for theirs (slots passing unused).
    const workers = this.deps.pacer ? sending.length : DEFAULT_SEND_CONCURRENCY;
    await eachReleasing(sending, workers, async (w) => {
      try {
        await this.sendOne(w, ctx, () => firstAnswer(w));
      } finally {
        firstAnswer(w);
      }
    });
  }

  private async sendOne(w: SmsWork, ctx: BurstContext<TwilioConfig>, retrying: () => void): Promise<void> {
    const cfg = ctx.settings;
    if (w.slot) await sleepUntil(w.slot, this.deps.now);
    // The lease ran out meanwhile (a burst slowed down): given up before the call, claim removed; the step is
    // retaken, and no send of it starts after its lease (see sendInFlightMs).
    if (this.deps.now().getTime() > ctx.leaseUntil.getTime()) {
      await this.SendClaim.deleteOne({ contact_ref: w.c.id, template_id: w.tpl!.id });
      w.outcome = 'busy';
      return;
    }
    let sent: SentSms;
    try {
      sent = await this.deps.provider.send({
        to: w.c.phone,
        body: w.message!,
        messagingServiceSid: cfg.messaging_service_sid || undefined,
        from: cfg.phone_number || undefined,
        statusCallback: statusCallbackUrl(cfg, this.deps.publicUrl),
        notAfter: ctx.leaseUntil,
        ...this.paced(cfg),
        retrying,
      });
    } catch (err) {
      const msg = sendFailureMessage(err);
      const optedOut = await optOutOnRefusal({ OptOut: this.OptOut, now: this.deps.now, logger: this.deps.logger }, w.c.phone, err);
      w.log = this.logOf(w, 'failed', { error_message: msg });
      w.outcome = 'failed';
      // A number that opted out ends its sequence like a STOP reply does; any other refusal is an error.
      w.set = { next_at: null, status: optedOut ? 'opted_out' : 'error' };
      // `detail`: a transport failure's own text (host names), kept out of the log row staff read.
      this.deps.logger.warn({ contact: w.c.id, err: msg, detail: (err as { detail?: string }).detail }, 'SMS send failed');
      return;
    }
    const sentAt = this.deps.now();
    observeLateness(w.c.next_at, sentAt);
    w.log = this.logOf(w, logStatusFromTwilio(sent.status) ?? 'queued', { message_sid: sent.sid, error_message: incentiveLogNote(w) });
    w.nextAt = nextStepAt(sentAt, w.following && { delay: w.following.delay_minutes }, this.deps.delayUnitMs);
    w.outcome = 'sent';
    w.sent = true;
    w.set = { status: 'sent', last_sent_at: sentAt, last_sent_cart_at: cartChangedAt(w.c.cart), next_at: w.nextAt };
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
   * After a crash between a step's claim and its log: asks the provider whether the message went out. 'sent': it
   * did (its log is the work's); 'not_sent': it did not, and the claim is removed so it is sent now; 'unknown': the
   * provider did not answer, or the claiming attempt may still be sending; 'assumed': no way to ask, the claim
   * counts as sent (at most once).
   */
  private async settleInterrupted(
    w: SmsWork,
    claim: Claim,
    tpl: TemplateDoc | null,
  ): Promise<'sent' | 'not_sent' | 'unknown' | 'assumed'> {
    const { provider, logger } = this.deps;
    const c = w.c;
    if (!provider.findSent || !tpl) return 'assumed';
    // The attempt that claimed it may still be sending (a burst slowed past its lease, an instance retrying Twilio):
    // asked now, the provider would not have it yet, and sending again would send twice.
    if (this.deps.now().getTime() - new Date(claim.claimed_at).getTime() < this.deps.sendInFlightMs) return 'unknown';
    // The body as it was sent: with the integration's fallback link when the contact had none.
    // With the step's code when it gave one (the grant keeps it), applied to the link where the shop does.
    const given = await this.deps.incentives?.giver.given(c.id, stepKey('sms', tpl.id));
    // The link as the claiming attempt chose it: at its claim, past the sender's deadline, the fallback.
    const { link } = linkAt(c, w.integration!, claim.claimed_at);
    // Our redirect link when the message was sent with one (made before the claim, kept per contact and template).
    const tracked = link ? await this.deps.trackedLinks?.links.sentWith(c.id, tpl.id) : null;
    const message = smsBody(tpl.message, c, tracked || (link && given ? applyCodeToRecoveryUrl(link, given.code, given.platform) : link), given?.code ?? null).message;
    let found;
    try {
      // A minute of margin for the provider's clock.
      found = (await provider.findSent(c.phone, new Date(claim.claimed_at.getTime() - 60_000))).find((m) => m.body === message);
    } catch (err) {
      logger.warn({ contact: c.id, err: (err as Error).message }, 'could not ask the provider about an interrupted send');
      return 'unknown';
    }
    if (found) {
      w.log = this.deps.logs.fields(c, tpl, message, logStatusFromTwilio(found.status) ?? 'queued', { message_sid: found.sid });
      logger.warn({ contact: c.id, template: tpl.id }, 'interrupted send had gone out: logged now');
      return 'sent';
    }
    await this.SendClaim.deleteOne({ _id: claim._id });
    logger.warn({ contact: c.id, template: tpl.id }, 'interrupted send had not gone out: sending it again');
    return 'not_sent';
  }

  private logOf(w: SmsWork, status: SmsLogStatus, extra: Partial<LogDoc>): Omit<LogDoc, 'id'> {
    return this.deps.logs.fields(w.c, w.tpl!, w.message!, status, { ...(w.variant ? { variant: w.variant.id } : {}), ...extra });
  }

  /** Phones among these that replied STOP, by the opt-outs' `phone` index (one read for the burst). */
  private async optedOut(phones: string[]): Promise<Set<string>> {
    if (phones.length === 0) return new Set();
    const { keys, phoneOf } = optOutKeys(phones);
    const rows = await (this.OptOut.collection as unknown as Collection<OptOutDoc>)
      .find({ phone: { $in: keys } }, { projection: { _id: 0, phone: 1 } })
      .toArray();
    return new Set(rows.map((r) => phoneOf.get(r.phone)!));
  }

  private templatesOf(campaignId: number): Promise<TemplateDoc[]> {
    return this.deps.recent.get(`templates:${campaignId}`, () =>
      this.Template.find({ campaign_id: campaignId, active: true }).sort({ sequence_order: 1, id: 1 }).lean<TemplateDoc[]>(),
    );
  }

  /** The campaign of an integration's contacts, through the same short-lived reads as the template step. */
  private async campaignOfIntegration(id: number): Promise<CampaignDoc | null> {
    const integration = await this.deps.recent.get(`integration:${id}`, () => this.Integration.findOne({ id }).lean<IntegrationDoc>());
    if (!integration || !integration.active) return null;
    return this.deps.recent.get(`campaign:${integration.id}:${integration.sms_campaign_id}`, () => this.campaignOf(integration));
  }

  private async campaignOf(integration: IntegrationDoc): Promise<CampaignDoc | null> {
    if (integration.sms_campaign_id) {
      const byId = await this.Campaign.findOne({ id: integration.sms_campaign_id }).lean<CampaignDoc>();
      if (byId) return byId;
    }
    return this.Campaign.findOne({ integration_id: integration.id, active: true }).sort({ id: 1 }).lean<CampaignDoc>();
  }
}

/** A step's lateness: from when it was due (after any blackout hold moved it) to its hand-off to Twilio. */
function observeLateness(due: Date | null | undefined, sentAt: Date): void {
  if (due) reminderLateness.observe({ channel: 'sms' }, Math.max(0, sentAt.getTime() - new Date(due).getTime()) / 1000);
}

function sleepUntil(at: Date, now: () => Date): Promise<void> {
  const ms = at.getTime() - now().getTime();
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
