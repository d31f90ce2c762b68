import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { isDuplicateKeyError, type Logger } from '@act/service-kit';
import { usesCheckoutLink } from '@act/contracts/src/email-api';
import { NO_CHECKOUT_LINK_MESSAGE } from '@act/contracts/src/checkout-link';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService, NewEmailLog } from '../email-logs/service';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { EmailTemplateDoc } from '../templates/model';
import type { UnsubscribeService } from '../unsubscribe/service';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import type { ResendProvider } from '../providers/resend';
import { composeEmail } from './compose';
import type { RecoveryUrls } from './recovery-urls';
import { sendClaimModel, sequenceStepModel, type SendClaimDoc, type SequenceStepDoc } from './model';

/** A step being worked holds its contact this long: longer than any provider call (RESEND_TIMEOUT_MS). */
const LEASE_MS = 5 * 60_000;
/** Live sending on but Resend not configured: look again after this (nothing is dropped meanwhile). */
const NOT_CONFIGURED_RETRY_MS = 30_000;
/** A step that threw (database trouble) is tried again after this. */
const ERROR_RETRY_MS = 10_000;
/** Steps of one contact worked back to back when they are due at once (delay 0). */
const MAX_STEPS_AT_ONCE = 50;

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
  /** Steps worked at once (EMAIL_SEND_CONCURRENCY); default 5. */
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

/**
 * Live campaign sends ("phase 2"): a due contact gets its campaign's active templates in template_order, the
 * first at remind_at (plus its own delay_hours, 0 by default), each next one delay_hours after the previous
 * send. Right before each send: the contact still exists and has not purchased, the campaign still exists and
 * is active, the address is not unsubscribed. Safe with any number of instances: a step is taken by a
 * compare-and-set on the sequence row, and the (contact, template) claim is inserted before Resend is called,
 * which also gets an Idempotency-Key; an email goes out at most once.
 */
export class SequenceEngine {
  private readonly steps: Collection<SequenceStepDoc>;
  private readonly claims: Collection<SendClaimDoc>;
  private readonly contacts: Collection<ContactDoc>;
  private readonly inFlight = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private scanning = false;
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: SequenceEngineDeps) {
    this.steps = sequenceStepModel(deps.conn).collection as unknown as Collection<SequenceStepDoc>;
    this.claims = sendClaimModel(deps.conn).collection as unknown as Collection<SendClaimDoc>;
    this.contacts = contactModel(deps.conn).collection as unknown as Collection<ContactDoc>;
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
    void this.work(items.map((c) => c.id)).catch((err) =>
      this.deps.logger.error({ err: (err as Error).message }, 'starting sequences failed; the scan retries'),
    );
  }

  /** Every waiting step that came due (all instances scan; the compare-and-set decides who works it). */
  async scan(limit = 200): Promise<number> {
    if (this.scanning) return 0;
    this.scanning = true;
    try {
      const due = await this.steps
        .find({ state: 'waiting', due_at: { $lte: new Date() } }, { projection: { _id: 0, contact_ref: 1 } })
        .sort({ due_at: 1 })
        .limit(limit)
        .toArray();
      return await this.work(due.map((d) => d.contact_ref));
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message }, 'sequence scan failed');
      return 0;
    } finally {
      this.scanning = false;
    }
  }

  private async work(refs: number[]): Promise<number> {
    const queue = refs.filter((r) => !this.inFlight.has(r));
    let handled = 0;
    const worker = async () => {
      for (let ref = queue.shift(); ref !== undefined; ref = queue.shift()) {
        const outcome = await this.process(ref);
        if (outcome !== 'busy' && outcome !== 'not_due') handled++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.concurrency ?? 5, queue.length) }, worker));
    return handled;
  }

  /** Works one contact's due steps (several when they are due at once). */
  async process(ref: number): Promise<StepOutcome> {
    if (this.inFlight.has(ref)) return 'busy';
    this.inFlight.add(ref);
    try {
      let outcome: StepOutcome = 'not_due';
      for (let i = 0; i < MAX_STEPS_AT_ONCE; i++) {
        outcome = await this.takeAndRun(ref);
        if (outcome !== 'sent' && outcome !== 'failed' && outcome !== 'skipped') break;
      }
      return outcome;
    } finally {
      this.inFlight.delete(ref);
    }
  }

  private async takeAndRun(ref: number): Promise<StepOutcome> {
    const now = new Date();
    const row = await this.steps.findOne({ contact_ref: ref }, { projection: { _id: 0 } });
    if (!row || row.state !== 'waiting' || !row.due_at || row.due_at.getTime() > now.getTime()) return 'not_due';
    const leaseId = randomUUID();
    const taken = await this.steps.updateOne(
      { contact_ref: ref, state: 'waiting', due_at: row.due_at, lease_id: row.lease_id },
      { $set: { due_at: new Date(now.getTime() + LEASE_MS), lease_id: leaseId } },
    );
    if (taken.modifiedCount === 0) return 'busy';
    try {
      return await this.step(row, leaseId, now);
    } catch (err) {
      this.deps.logger.error({ err: (err as Error).message, contact: ref }, 'sequence step failed; retrying later');
      await this.release(ref, leaseId, { due_at: new Date(Date.now() + ERROR_RETRY_MS) }).catch(() => undefined);
      return 'busy';
    }
  }

  /** Writes the row's new state if this lease still owns it. */
  private async release(
    ref: number,
    leaseId: string,
    set: Partial<SequenceStepDoc>,
    inc?: Partial<Record<'sent', number>>,
  ): Promise<void> {
    await this.steps.updateOne(
      { contact_ref: ref, lease_id: leaseId },
      { $set: { lease_id: null, updated_at: new Date(), ...set }, ...(inc ? { $inc: inc } : {}) },
    );
  }

  private async stopSequence(ref: number, leaseId: string, reason: string): Promise<StepOutcome> {
    await this.release(ref, leaseId, { state: 'stopped', due_at: null, stop_reason: reason });
    return 'stopped';
  }

  private async step(row: SequenceStepDoc, leaseId: string, now: Date): Promise<StepOutcome> {
    const ref = row.contact_ref;
    const contact = await this.contacts.findOne(
      { id: ref },
      { projection: { _id: 0, id: 1, contact_id: 1, email: 1, status: 1, integration_id: 1 } },
    );
    if (!contact) return this.stopSequence(ref, leaseId, 'contact_deleted');
    if (contact.status === 'purchased') return this.stopSequence(ref, leaseId, 'purchased');
    const campaign = await this.deps.campaigns.find(row.campaign_id);
    if (!campaign || !campaign.active) return this.stopSequence(ref, leaseId, 'campaign_unavailable');

    const templates = await this.deps.templates.activeOfCampaign(row.campaign_id);
    const after = (t: EmailTemplateDoc, order: number, id: number) =>
      t.template_order > order || (t.template_order === order && t.id > id);
    const next = templates.find((t) => after(t, row.last_order, row.last_template_id));
    if (!next) {
      await this.release(ref, leaseId, { state: 'finished', due_at: null });
      return 'finished';
    }
    // Read now, not when the previous step went out: an edited delay applies to steps still to come.
    const due = new Date(row.base_at.getTime() + next.delay_hours * this.deps.hourMs);
    if (due.getTime() > now.getTime()) {
      await this.release(ref, leaseId, { due_at: due });
      return 'waiting';
    }

    const status = await this.deps.provider.status();
    if (!status.configured || !status.from) {
      this.warnNotConfigured();
      await this.release(ref, leaseId, { due_at: new Date(now.getTime() + NOT_CONFIGURED_RETRY_MS) });
      return 'not_configured';
    }
    if (await this.deps.unsubscribes.isUnsubscribed(contact.email)) {
      await this.log(contact, unsubscribedMessage(contact.email), 'unsubscribed');
      return this.stopSequence(ref, leaseId, 'unsubscribed');
    }

    const advance = async (at: Date, sent: boolean) => {
      const following = templates.find((t) => after(t, next.template_order, next.id));
      await this.release(
        ref,
        leaseId,
        {
          last_order: next.template_order,
          last_template_id: next.id,
          base_at: at,
          state: following ? 'waiting' : 'finished',
          due_at: following ? new Date(at.getTime() + following.delay_hours * this.deps.hourMs) : null,
        },
        sent ? { sent: 1 } : undefined,
      );
    };

    // No email with an empty or made-up checkout link: a template that needs one is skipped (and logged) for a
    // contact with neither its funnel's link nor a fallback; the sequence goes on with the next template.
    const recoveryUrl = await this.deps.recoveryUrls.forContact(contact.integration_id ?? null, contact.contact_id);
    if (!recoveryUrl && usesCheckoutLink(`${next.subject}\n${next.html_content}`)) {
      await this.log(contact, skippedNoLinkMessage(next, contact.email), 'skipped_no_link');
      await advance(now, false);
      return 'skipped';
    }

    // The (contact, template) claim comes before the provider call: never twice, even across instances.
    let claimId: string;
    try {
      const inserted = await this.claims.insertOne({
        contact_ref: ref,
        template_id: next.id,
        claimed_at: now,
        status: 'claimed',
        message_id: null,
        error: null,
      });
      claimId = String(inserted.insertedId);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const earlier = await this.claims.findOne({ contact_ref: ref, template_id: next.id });
      await advance(earlier?.claimed_at ?? now, false);
      return 'skipped';
    }

    const email = composeEmail(next, {
      to: contact.email,
      recoveryUrl: recoveryUrl ?? '',
      fromAddress: status.from,
      links: this.deps.links,
      // The claim's id: stable for this (contact, template), unique across deployments sharing a Resend account.
      idempotencyKey: `act-email-${claimId}`,
    });
    const result = await this.deps.provider.send(email);
    const sentAt = new Date();
    if (result.ok) {
      await this.claims.updateOne(
        { contact_ref: ref, template_id: next.id },
        { $set: { status: 'sent', message_id: result.id } },
      );
      await this.log(contact, sentMessage(next, contact.email, result.id), 'sent', result.id, {
        integration_id: contact.integration_id ?? null,
        campaign_id: row.campaign_id,
        template_id: next.id,
        step: next.template_order,
      });
    } else {
      await this.claims.updateOne(
        { contact_ref: ref, template_id: next.id },
        { $set: { status: 'failed', error: result.message } },
      );
      await this.log(contact, failedMessage(next, contact.email, result.message), 'failed');
    }
    await advance(sentAt, result.ok);
    return result.ok ? 'sent' : 'failed';
  }

  private log(
    contact: Pick<ContactDoc, 'id' | 'contact_id' | 'email'>,
    message: string,
    status: string,
    messageId: string | null = null,
    touch?: NewEmailLog['touch'],
  ): Promise<void> {
    const entry: NewEmailLog = {
      ...(touch ? { touch } : {}),
      contact_id: contact.contact_id,
      contact_ref: contact.id,
      email: contact.email,
      message,
      status,
      ...(messageId ? { message_id: messageId } : {}),
    };
    return this.deps.logs.addMany([entry]);
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
