import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { DuePoller, FlowRunner, step, type StepStore, type Work } from '@act/flow';
import { reminderLateness, type Logger } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { ReminderHooks } from '../contacts/service';
import { heldReason, type ClaimedContact, type ReminderSender } from './sender';

const CLAIMED = { _id: 0, id: 1, contact_id: 1, email: 1, integration_id: 1, remind_at: 1, reminders_held: 1 } as const;
/** Outcome of a contact whose reminder this instance claimed and handed to the sender. */
const REMINDED = 'reminded';
/** Outcome of a claimed contact whose reminder is held (reminders_held, a test delivery): logged, never sent. */
const HELD = 'held';

type Claimed = ClaimedContact & { remind_at?: Date };

function withoutToken(r: Partial<ContactDoc>): Claimed {
  const { claim_token: _token, ...rest } = r;
  return rest as unknown as Claimed;
}

/** Persistent per-contact jobs (Agenda in production); absent in unit tests. */
export interface ReminderJobs {
  schedule(items: { id: number; remind_at: Date }[]): void;
  cancel(ids: number[]): Promise<void>;
  cancelAll(): Promise<void>;
}

export interface ReminderOptions {
  /** How long the due poller waits after a look that found less than a full round (REMINDER_DUE_SCAN_MS). */
  dueScanMs: number;
  /** Contacts claimed per burst (one claim write, one sender call, one log insertMany). */
  batchSize?: number;
}

/**
 * The pending contacts as a flow's step store: due by `{ status: 'pending', remind_at: { $lte: now } }` sorted by
 * remind_at (the (status, remind_at) index), taken by the claim itself. The claim is one conditional update per
 * contact on { id, status: 'pending' } to 'sent', carrying this write's token (one read tells which ones are ours when
 * some were not), so whichever path or instance comes first sends, and nobody sends twice; a purchased contact is no
 * longer pending, so it never gets one. It also sets `send_pending`, removed once the sender has written the
 * reminder: a process killed between the two leaves it, and the next start (or any instance's sweep) sends those
 * again.
 */
class PendingContacts implements StepStore<ContactDoc> {
  constructor(private readonly contacts: Collection<ContactDoc>) {}

  ref(c: ContactDoc): number {
    return c.id;
  }

  async due(now: Date, limit: number): Promise<number[]> {
    const rows = await this.contacts
      .find({ status: 'pending', remind_at: { $lte: now } }, { projection: { _id: 0, id: 1 } })
      .sort({ remind_at: 1 })
      .limit(limit)
      .toArray();
    return rows.map((r) => r.id);
  }

  /** The rows as the claim needs them: by id, whatever their state (the claim's own filter decides). */
  async readDue(refs: number[]): Promise<ContactDoc[]> {
    return refs.map((id) => ({ id }) as ContactDoc);
  }

  async take(rows: ContactDoc[]): Promise<{ leaseId: string; taken: ContactDoc[] }> {
    const now = new Date();
    const token = randomUUID();
    const res = await this.contacts.bulkWrite(
      rows.map(({ id }) => ({
        updateOne: {
          filter: { id, status: 'pending' as const },
          update: { $set: { status: 'sent' as const, sent_at: now, send_pending: true as const, claim_token: token } },
        },
      })),
      { ordered: false },
    );
    if (res.modifiedCount === 0) return { leaseId: token, taken: [] };
    const read = await this.contacts
      .find({ id: { $in: rows.map((r) => r.id) } }, { projection: { ...CLAIMED, claim_token: 1 } })
      .toArray();
    return { leaseId: token, taken: read.filter((r) => r.claim_token === token).map((r) => withoutToken(r) as unknown as ContactDoc) };
  }
}

/**
 * The reminder: a due pending contact is claimed (pending → sent) and handed to the sender (part 1's `would_send`
 * log, or, with live sending, the unsubscribe list and its campaign's sequence), by the flow runner (@act/flow) with
 * the pending contacts as its step store. Three ways in, one way through:
 * - the due poller: every instance asks MongoDB for what came due, every `dueScanMs` (at once again after a full
 *   round);
 * - Agenda's `send-reminder` job per contact (persistent: survives restarts), a burst of one;
 * - the sweep (Agenda every minute, and "Process Missed Emails") for anything pending and due.
 * The sender is idempotent per contact (the reminder log is keyed by contact, a sequence starts once), so the repeat
 * of an interrupted send is safe even while the original instance is still at it.
 */
export class ReminderService implements ReminderHooks {
  private jobs: ReminderJobs | null = null;
  private readonly batchSize: number;
  private readonly runner: FlowRunner<ContactDoc, Work<ContactDoc>>;
  private readonly poller: DuePoller;

  constructor(
    private readonly contacts: Collection<ContactDoc>,
    private readonly sender: ReminderSender,
    private readonly logger: Logger,
    private readonly opts: ReminderOptions,
  ) {
    this.batchSize = opts.batchSize ?? 500;
    this.runner = new FlowRunner<ContactDoc, Work<ContactDoc>>(
      {
        name: 'reminder',
        store: new PendingContacts(contacts),
        gate: async () => ({ settings: undefined }),
        work: (c) => ({ ref: c.id, row: c }),
        steps: [
          step('remind', async (open) => {
            await this.deliver(open.map((w) => w.row as unknown as Claimed));
            for (const w of open) w.outcome = heldReason(w.row as unknown as Claimed) ? HELD : REMINDED;
          }),
        ],
        recorder: {
          finish: async (works) => {
            const handedAt = Date.now();
            for (const w of works) {
              const c = w.row as unknown as Claimed;
              if (c.remind_at) reminderLateness.observe({ channel: 'email' }, Math.max(0, handedAt - new Date(c.remind_at).getTime()) / 1000);
            }
            this.jobs?.cancel(works.map((w) => w.ref)).catch(() => undefined);
          },
        },
      },
      // The claim is final (never given back): a crash after it leaves `send_pending`, which resumeInterrupted sends.
      { leaseMs: 0, logger },
    );
    this.poller = new DuePoller(this.runner, { everyMs: opts.dueScanMs, burst: this.batchSize, bursts: 1, logger });
  }

  attachJobs(jobs: ReminderJobs): void {
    this.jobs = jobs;
  }

  // ReminderHooks: contacts tell us about creations, purchases and deletions.
  scheduled(items: { id: number; remind_at: Date }[]): void {
    this.jobs?.schedule(items);
  }

  closed(ids: number[]): void {
    this.jobs?.cancel(ids).catch((err) => this.logger.warn({ err: (err as Error).message }, 'cancelling reminder jobs failed'));
  }

  clearedAll(): void {
    this.jobs?.cancelAll().catch((err) => this.logger.warn({ err: (err as Error).message }, 'cancelling all reminder jobs failed'));
  }

  /** Claims these contacts' reminders (those still pending and due) and sends them; returns how many this call won. */
  async sendDue(ids: number[]): Promise<number> {
    let won = 0;
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += this.batchSize)
      for (const o of (await this.runner.processBurst(unique.slice(i, i + this.batchSize))).values()) if (o === REMINDED) won++;
    return won;
  }

  /**
   * Hands claimed contacts to the sender, then clears their `send_pending`. A failing sender leaves it (the claim
   * stands: the contact is never claimed again), and the sweep tries again.
   */
  private async deliver(claimed: ClaimedContact[]): Promise<void> {
    // A held contact reaches no sender: its log says why, on every path (claim, resumed after a crash).
    const held = claimed.filter((c) => heldReason(c));
    try {
      if (held.length) await this.sender.held(held);
      const rest = claimed.filter((c) => !heldReason(c));
      if (rest.length) await this.sender.send(rest);
    } catch (err) {
      this.logger.error({ err: (err as Error).message, contacts: claimed.map((c) => c.id) }, 'reminder send failed after claim');
      throw err;
    }
    // One update each by the `id` index.
    await this.contacts
      .bulkWrite(claimed.map((c) => ({ updateOne: { filter: { id: c.id }, update: { $unset: { send_pending: '' } } } })), { ordered: false })
      .catch((err) => this.logger.warn({ err: (err as Error).message }, 'clearing send_pending failed; the sweep repeats the (idempotent) send'));
  }

  /** Claimed contacts whose reminder was never written (the process died in between): sends them now. */
  async resumeInterrupted(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = (await this.contacts
        .find({ send_pending: true }, { projection: CLAIMED })
        .limit(this.batchSize)
        .toArray()) as unknown as ClaimedContact[];
      if (claimed.length === 0) break;
      // A failing sender leaves them pending: stop here rather than read the same batch again.
      if (!(await this.deliver(claimed).then(() => true, () => false))) break;
      total += claimed.length;
      if (claimed.length < this.batchSize) break;
    }
    if (total > 0) this.logger.warn({ contacts: total }, 'sent reminders claimed before a crash but not written');
    return total;
  }

  /** Everything pending whose reminder time has passed, in batches; returns how many this call sent. */
  async sweep(): Promise<number> {
    let total = await this.resumeInterrupted();
    for (;;) {
      const due = await this.runner.due(this.batchSize);
      if (due.length === 0) break;
      total += await this.sendDue(due);
      if (due.length < this.batchSize) break;
    }
    return total;
  }

  /** Resumes interrupted sends (after a restart) and starts the due poller. */
  async start(): Promise<void> {
    await this.resumeInterrupted().catch((err) => this.logger.error({ err: (err as Error).message }, 'resuming interrupted reminders failed; the sweep retries'));
    this.poller.start();
  }

  stop(): void {
    this.poller.stop();
  }
}
