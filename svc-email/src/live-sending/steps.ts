import { ObjectId, type Collection } from 'mongodb';
import { insertAll, step, type BurstContext, type FlowStep } from '@act/flow';
import { applyCodeToRecoveryUrl, type Incentives, type Logger } from '@act/service-kit';
import { emailIncentiveStep, incentiveLogSuffix } from '../incentives/step';
import { usesCheckoutLink } from '@act/contracts/src/email-api';
import { NO_CHECKOUT_LINK_MESSAGE } from '@act/contracts/src/checkout-link';
import { cartChangedAt, recoveryExpired } from '@act/contracts/src/cart';
import type { ContactDoc } from '../contacts/model';
import type { NewEmailLog } from '../email-logs/service';
import { heldMessage, heldReason, unsubscribedMessage } from '../reminders/sender';
import type { CampaignsService } from '../campaigns/service';
import type { TemplatesService } from '../templates/service';
import type { EmailTemplateDoc } from '../templates/model';
import type { UnsubscribeService } from '../unsubscribe/service';
import { normaliseEmail } from '../unsubscribe/model';
import type { UnsubscribeLinkSettings } from '../unsubscribe/links';
import type { ResendProvider } from '../providers/resend';
import type { SendResult } from '../providers/types';
import { composeEmail } from './compose';
import { emailCartChange } from './cart-change';
import { emailCompletedElsewhere } from './completed-elsewhere';
import { emailPriorityExit } from './priority-exit';
import type { RecoveryUrls } from './recovery-urls';
import type { EmailTrackedLinks } from '../links';
import type { SendClaimDoc, SequenceStepDoc } from './model';
import type { StepRelease } from './step-store';
import type { EmailSettings, EmailWork, StepContact } from './work';

export type { EmailSettings, EmailWork, StepOutcome } from './work';
import { earliestDelayHours, emailExperimentStep } from './experiment';
import type { StoredCampaignExperiment } from '@act/service-kit';

/** Live sending on but Resend not configured: look again after this (nothing is dropped meanwhile). */
const NOT_CONFIGURED_RETRY_MS = 30_000;

export function sentMessage(t: Pick<EmailTemplateDoc, 'name' | 'template_order'>, email: string, id: string): string {
  return `Sent "${t.name}" (step ${t.template_order}) to ${email}; Resend id ${id}`;
}
export function skippedNoLinkMessage(t: Pick<EmailTemplateDoc, 'name' | 'template_order'>, email: string): string {
  return `Not sent "${t.name}" (step ${t.template_order}) to ${email}: ${NO_CHECKOUT_LINK_MESSAGE}`;
}
export function skippedExpiredLinkMessage(t: Pick<EmailTemplateDoc, 'name' | 'template_order'>, email: string): string {
  return `Not sent "${t.name}" (step ${t.template_order}) to ${email}: recovery link expired (and no fallback link)`;
}
export function failedMessage(
  t: Pick<EmailTemplateDoc, 'name' | 'template_order'>,
  email: string,
  error: string,
): string {
  return `Failed to send "${t.name}" (step ${t.template_order}) to ${email}: ${error}`;
}

const CONTACT_FIELDS = {
  _id: 0,
  id: 1,
  contact_id: 1,
  email: 1,
  first_name: 1,
  status: 1,
  integration_id: 1,
  reminders_held: 1,
  test: 1,
  // The whole cart: the message shows it (its total, items, the Cart block), and its recovery deadline rules the link.
  cart: 1,
} as const;


export interface EmailStepsDeps {
  contacts: Collection<ContactDoc>;
  claims: Collection<SendClaimDoc>;
  campaigns: CampaignsService;
  templates: TemplatesService;
  unsubscribes: UnsubscribeService;
  provider: ResendProvider;
  recoveryUrls: RecoveryUrls;
  links: UnsubscribeLinkSettings;
  incentives: Incentives;
  /** Our redirect links (links/), put in before the claim when the operator counts clicks with them; absent: none. */
  trackedLinks?: EmailTrackedLinks;
  /** The flow rows, where a contact's holdout and variants are kept; absent: no campaign experiments. */
  experimentRows?: Collection<SequenceStepDoc>;
  hourMs: number;
  logger: Logger;
}

type Step = FlowStep<EmailWork, EmailSettings>;

const after = (t: EmailTemplateDoc, order: number, id: number) =>
  t.template_order > order || (t.template_order === order && t.id > id);

/**
 * The email flow's steps, in order: the contact is still there and has not purchased; the campaign is active and its
 * next template due (delays read now, so an edited delay applies to steps still to come); Resend is configured; the
 * address is not unsubscribed; the checkout link the template needs exists; the (contact, template) claim; the send.
 */
export class EmailSteps {
  private lastNotConfiguredWarning = 0;

  constructor(private readonly deps: EmailStepsDeps) {}

  get all(): Step[] {
    return [
      step('contact', (open) => this.contact(open)),
      emailCompletedElsewhere({ contacts: this.deps.contacts, logger: this.deps.logger }),
      emailCartChange({ claims: this.deps.claims, campaigns: this.deps.campaigns, logger: this.deps.logger }),
      ...(this.deps.experimentRows
        ? [emailPriorityExit({ contacts: this.deps.contacts, rows: this.deps.experimentRows, campaigns: this.deps.campaigns, logger: this.deps.logger })]
        : []),
      step('template', (open, ctx) => this.template(open, ctx)),
      ...(this.deps.experimentRows ? [emailExperimentStep({ rows: this.deps.experimentRows, hourMs: this.deps.hourMs })] : []),
      step('provider', (open, ctx) => this.configured(open, ctx)),
      step('unsubscribed', (open) => this.unsubscribed(open)),
      step('link', (open, ctx) => this.link(open, ctx)),
      emailIncentiveStep(this.deps.incentives),
      ...(this.deps.trackedLinks ? [this.deps.trackedLinks.step()] : []),
      step('claim', (open, ctx) => this.claim(open, ctx)),
      step('send', (open, ctx) => this.send(open, ctx)),
    ];
  }

  private stop(w: EmailWork, reason: string): void {
    w.outcome = 'stopped';
    w.release = { set: { state: 'stopped', due_at: null, stop_reason: reason } };
  }

  private async contact(open: EmailWork[]): Promise<void> {
    const contacts = await this.deps.contacts.find({ id: { $in: open.map((w) => w.ref) } }, { projection: CONTACT_FIELDS }).toArray();
    const byId = new Map(contacts.map((c) => [c.id, c as StepContact]));
    for (const w of open) {
      const c = byId.get(w.ref);
      if (!c) this.stop(w, 'contact_deleted');
      else if (c.status === 'purchased') this.stop(w, 'purchased');
      else if (heldReason(c)) {
        // Held at intake (no consent to promotions) or a test delivery: no step, logged, counted as no send.
        w.log = logOf(c, heldMessage(c.email, heldReason(c)!), 'held');
        this.stop(w, 'reminders_held');
      } else w.contact = c;
    }
  }

  private async template(open: EmailWork[], ctx: BurstContext<EmailSettings>): Promise<void> {
    // Each campaign of the burst once (a burst is mostly one campaign).
    const templatesOf = new Map<number, EmailTemplateDoc[] | null>();
    const experiments = new Map<number, StoredCampaignExperiment | null>();
    for (const id of new Set(open.map((w) => w.row.campaign_id))) {
      // Past the reminder a row always names its campaign (the reminder step chose it).
      if (id === null) continue;
      const campaign = await this.deps.campaigns.find(id);
      templatesOf.set(id, campaign?.active ? await this.deps.templates.activeOfCampaign(id) : null);
      experiments.set(id, campaign?.experiment ?? null);
    }
    for (const w of open) {
      const templates = w.row.campaign_id === null ? null : templatesOf.get(w.row.campaign_id);
      if (!templates) {
        this.stop(w, 'campaign_unavailable');
        continue;
      }
      const next = templates.find((t) => after(t, w.row.last_order, w.row.last_template_id));
      if (!next) {
        w.outcome = 'finished';
        w.release = { set: { state: 'finished', due_at: null } };
        continue;
      }
      w.experiment = experiments.get(w.row.campaign_id!) ?? null;
      // A variant may come sooner than the step's own delay: looked at by the earliest (experiment.ts waits on the rest).
      const due = new Date(w.row.base_at.getTime() + earliestDelayHours(next, w.experiment) * this.deps.hourMs);
      if (due.getTime() > ctx.now.getTime()) {
        w.outcome = 'waiting';
        w.release = { set: { due_at: due } };
        continue;
      }
      w.templates = templates;
      w.next = next;
    }
  }

  private async configured(open: EmailWork[], ctx: BurstContext<EmailSettings>): Promise<void> {
    if (ctx.settings.from) return;
    this.warnNotConfigured();
    for (const w of open) {
      w.outcome = 'not_configured';
      w.release = { set: { due_at: new Date(ctx.now.getTime() + NOT_CONFIGURED_RETRY_MS) } };
    }
  }

  private async unsubscribed(open: EmailWork[]): Promise<void> {
    const unsubscribed = await this.deps.unsubscribes.unsubscribedAmong(open.map((w) => w.contact!.email));
    for (const w of open) {
      if (!unsubscribed.has(normaliseEmail(w.contact!.email))) continue;
      w.log = logOf(w.contact!, unsubscribedMessage(w.contact!.email), 'unsubscribed');
      this.stop(w, 'unsubscribed');
    }
  }

  /**
   * No email with an empty or made-up checkout link: a template that needs one is skipped (and logged) for a contact
   * with neither its funnel's link nor a fallback; the sequence goes on with the next template. Only the templates
   * that use the link look it up.
   */
  private async link(open: EmailWork[], ctx: BurstContext<EmailSettings>): Promise<void> {
    const needLink = open.filter((w) => usesCheckoutLink(`${w.next!.subject}\n${w.next!.html_content}`));
    for (const w of needLink) w.recoveryUrl = await this.deps.recoveryUrls.forContact(w.contact!, ctx.now);
    for (const w of needLink) {
      if (w.recoveryUrl) continue;
      const c = w.contact!;
      const message = recoveryExpired(c, ctx.now) ? skippedExpiredLinkMessage(w.next!, c.email) : skippedNoLinkMessage(w.next!, c.email);
      w.log = logOf(c, message, 'skipped_no_link');
      w.outcome = 'skipped';
      w.release = this.advance(w, ctx.now, false);
    }
  }

  /**
   * The (contact, template) claims come before the provider calls: never twice, even across instances. A claim
   * already there (a crash after it, or a race) means the template was handled: the sequence moves past it.
   */
  private async claim(open: EmailWork[], ctx: BurstContext<EmailSettings>): Promise<void> {
    const rows = open.map((w) => ({
      _id: new ObjectId(),
      contact_ref: w.ref,
      template_id: w.next!.id,
      claimed_at: ctx.now,
      status: 'claimed' as const,
      message_id: null,
      error: null,
    }));
    const refused = new Set(await insertAll(this.deps.claims, rows));
    await Promise.all(
      open.map(async (w, i) => {
        if (!refused.has(i)) {
          w.claimId = String(rows[i]!._id);
          return;
        }
        const earlier = await this.deps.claims.findOne({ contact_ref: w.ref, template_id: w.next!.id });
        w.outcome = 'skipped';
        w.release = this.advance(w, earlier?.claimed_at ?? ctx.now, false);
      }),
    );
  }

  /** Handed to the provider together: its batch sender puts them in as few paced calls as it can. */
  private async send(open: EmailWork[], ctx: BurstContext<EmailSettings>): Promise<void> {
    const from = ctx.settings.from!;
    const results = await Promise.all(
      open.map(async (w) => {
        const email = await composeEmail(w.next!, {
          to: w.contact!.email,
          firstName: w.contact!.first_name,
          cart: w.contact!.cart ?? null,
          discountCode: w.discountCode ?? null,
          recoveryUrl: w.trackedUrl ?? applyCodeToRecoveryUrl(w.recoveryUrl ?? '', w.discountCode, w.codePlatform),
          fromAddress: from,
          links: this.deps.links,
          // The claim's id: stable for this (contact, template), unique across deployments sharing a Resend account.
          idempotencyKey: `act-email-${w.claimId}`,
        });
        const result: SendResult = await this.deps.provider
          .send(email)
          .catch((err: Error) => ({ ok: false as const, message: err.message, statusCode: null, attempts: 0 }));
        return { result, at: new Date() };
      }),
    );
    ctx.release();
    await this.deps.claims.bulkWrite(
      open.map((w, i) => {
        const { result } = results[i]!;
        return {
          updateOne: {
            filter: { contact_ref: w.ref, template_id: w.next!.id },
            update: {
              $set: result.ok ? { status: 'sent' as const, message_id: result.id } : { status: 'failed' as const, error: result.message },
            },
          },
        };
      }),
      { ordered: false },
    );
    open.forEach((w, i) => {
      const { result, at } = results[i]!;
      const c = w.contact!;
      if (result.ok) {
        w.log = logOf(c, sentMessage(w.next!, c.email, result.id) + incentiveLogSuffix(w) + (w.variant ? `; variant ${w.variant.id}` : ''), 'sent', result.id, {
          integration_id: c.integration_id ?? null,
          campaign_id: w.row.campaign_id,
          template_id: w.next!.id,
          step: w.next!.template_order,
          ...(w.variant ? { variant: w.variant.id } : {}),
        });
        // Kept on the row: the experiment's results count this variant's deliveries and clicks.
        if (w.variant) Object.assign(w.log, { variant: w.variant.id, template_id: w.next!.id });
        w.outcome = 'sent';
      } else {
        w.log = logOf(c, failedMessage(w.next!, c.email, result.message), 'failed');
        w.outcome = 'failed';
      }
      w.release = this.advance(w, at, result.ok);
    });
  }

  /** The row past this step's template: the next one due delay_hours after `at`, or finished. */
  private advance(w: EmailWork, at: Date, sent: boolean): Omit<StepRelease, 'ref'> {
    const next = w.next!;
    const following = w.templates!.find((t) => after(t, next.template_order, next.id));
    w.nextAt = following ? new Date(at.getTime() + following.delay_hours * this.deps.hourMs) : null;
    return {
      set: {
        last_order: next.template_order,
        last_template_id: next.id,
        base_at: at,
        cart_at: cartChangedAt(w.contact?.cart),
        state: following ? 'waiting' : 'finished',
        due_at: w.nextAt,
      },
      sent,
    };
  }

  private warnNotConfigured() {
    if (Date.now() - this.lastNotConfiguredWarning < 60_000) return;
    this.lastNotConfiguredWarning = Date.now();
    this.deps.logger.warn('campaign emails are due but Resend is not configured (RESEND_API_KEY / RESEND_FROM); they wait');
  }
}

function logOf(
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
