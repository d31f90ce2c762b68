import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';
import { reminderLateness, type Logger } from '@act/service-kit';
import type { ContactDoc } from '../contacts/model';
import type { ReminderHooks } from '../contacts/service';
import { DueHeap } from './heap';
import type { ClaimedContact, ReminderSender } from './sender';

const CLAIMED = { _id: 0, id: 1, contact_id: 1, email: 1, integration_id: 1, remind_at: 1 } as const;

function withoutToken(r: Partial<ContactDoc>): ClaimedContact {
  const { claim_token: _token, ...rest } = r;
  return rest as unknown as ClaimedContact;
}

/** Persistent per-contact jobs (Agenda in production); absent in unit tests. */
export interface ReminderJobs {
  schedule(items: { id: number; remind_at: Date }[]): void;
  cancel(ids: number[]): Promise<void>;
  cancelAll(): Promise<void>;
}

export interface ReminderOptions {
  dueScanMs: number;
  /** Contacts claimed per batch (one sender call, one log insertMany). */
  batchSize?: number;
  /** Most contacts held in the due heap (memory bound); beyond it Agenda's jobs and the sweep send them. */
  maxHeld?: number;
}

/**
 * Moves due contacts pending → sent and hands the winners to the sender. Three ways in, one way through:
 * - the due ticker: contacts this instance knows of, held in memory by due time, claimed within `dueScanMs`
 *   (the benchmark's 10,000 due per minute at ≤ 2 s lateness; Agenda polls every few seconds);
 * - Agenda's `send-reminder` job per contact (persistent: survives restarts, covers other instances);
 * - the sweep (Agenda every minute, and "Process Missed Emails") for anything pending and due.
 * The claim is one conditional update on { id, status: 'pending' }, so whichever path or instance comes
 * first sends, and nobody sends twice; a purchased contact is no longer pending, so it never gets one.
 * The claim also sets `send_pending`, removed once the sender has written the reminder: a process killed
 * between the two leaves it, and the next start (or any instance's sweep) sends those again. The sender is
 * idempotent per contact (the reminder log is keyed by contact, a sequence starts once), so that repeat is safe
 * even while the original instance is still at it.
 */
export class ReminderService implements ReminderHooks {
  private readonly heap = new DueHeap();
  private jobs: ReminderJobs | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private readonly batchSize: number;
  private readonly maxHeld: number;
  private warnedFull = false;
  private readonly claimListeners: ((ids: number[], sentAt: Date) => Promise<void>)[] = [];

  constructor(
    private readonly contacts: Collection<ContactDoc>,
    private readonly sender: ReminderSender,
    private readonly logger: Logger,
    private readonly opts: ReminderOptions,
  ) {
    this.batchSize = opts.batchSize ?? 500;
    this.maxHeld = opts.maxHeld ?? 1_000_000;
  }

  private hold(dueAt: number, id: number): void {
    if (this.heap.size < this.maxHeld) return this.heap.push(dueAt, id);
    if (!this.warnedFull) this.logger.warn({ held: this.heap.size }, 'due heap full; further reminders rely on Agenda jobs and the sweep');
    this.warnedFull = true;
  }

  attachJobs(jobs: ReminderJobs): void {
    this.jobs = jobs;
  }

  // ReminderHooks: contacts tell us about creations, purchases and deletions.
  scheduled(items: { id: number; remind_at: Date }[]): void {
    for (const it of items) this.hold(it.remind_at.getTime(), it.id);
    this.jobs?.schedule(items);
  }

  closed(ids: number[]): void {
    // Heap entries stay: their claim finds the contact no longer pending and does nothing.
    this.jobs?.cancel(ids).catch((err) => this.logger.warn({ err: (err as Error).message }, 'cancelling reminder jobs failed'));
  }

  onClaimed(listener: (ids: number[], sentAt: Date) => Promise<void>): void {
    this.claimListeners.push(listener);
  }

  clearedAll(): void {
    this.heap.clear();
    this.jobs?.cancelAll().catch((err) => this.logger.warn({ err: (err as Error).message }, 'cancelling all reminder jobs failed'));
  }

  /**
   * Claims each contact (pending → sent) and sends for the ones this call won. Returns how many it won. One write claims
   * them all: each row changes only while still pending (its filter is exactly the unique (id, status) index's keys,
   * an index hit on the stand-in too) and takes this call's token; when some did not change (another path or instance
   * won them), one read says which are ours. A claim per contact (findOneAndUpdate) was one round trip per reminder.
   */
  async sendDue(ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const now = new Date();
    const unique = [...new Set(ids)];
    const token = randomUUID();
    const won: ClaimedContact[] = [];
    for (let i = 0; i < unique.length; i += this.batchSize) {
      const chunk = unique.slice(i, i + this.batchSize);
      const res = await this.contacts.bulkWrite(
        chunk.map((id) => ({
          updateOne: {
            filter: { id, status: 'pending' as const },
            update: { $set: { status: 'sent' as const, sent_at: now, send_pending: true as const, claim_token: token } },
          },
        })),
        { ordered: false },
      );
      if (res.modifiedCount === 0) continue;
      const rows = await this.contacts
        .find({ id: { $in: chunk } }, { projection: { ...CLAIMED, claim_token: 1 } })
        .toArray();
      for (const r of rows) if (r.claim_token === token) won.push(withoutToken(r));
    }
    if (won.length === 0) return 0;
    // The contacts list shows 'sent' from here on, on every instance (a failure only delays it, see contacts/view.ts).
    await Promise.all(this.claimListeners.map((l) => l(won.map((c) => c.id), now))).catch((err) => this.logger.warn({ err: (err as Error).message }, 'announcing reminder claims failed'));
    if (await this.deliver(won)) {
      const handedAt = Date.now();
      for (const c of won as (ClaimedContact & { remind_at?: Date })[])
        if (c.remind_at) reminderLateness.observe({ channel: 'email' }, Math.max(0, handedAt - new Date(c.remind_at).getTime()) / 1000);
    }
    this.jobs?.cancel(won.map((c) => c.id)).catch(() => undefined);
    return won.length;
  }

  /** Hands claimed contacts to the sender, then clears their `send_pending` (kept when the sender failed). */
  private async deliver(won: ClaimedContact[]): Promise<boolean> {
    try {
      await this.sender.send(won);
    } catch (err) {
      // The claim stands: the contact is never claimed again; `send_pending` stays, so the sweep tries again.
      this.logger.error({ err: (err as Error).message, contacts: won.map((c) => c.id) }, 'reminder send failed after claim');
      return false;
    }
    // By exactly the `id` index's key, one update each: an index hit also on the stand-in ($in would scan).
    await this.contacts
      .bulkWrite(won.map((c) => ({ updateOne: { filter: { id: c.id }, update: { $unset: { send_pending: '' } } } })), { ordered: false })
      .catch((err) => this.logger.warn({ err: (err as Error).message }, 'clearing send_pending failed; the sweep repeats the (idempotent) send'));
    return true;
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
      if (!(await this.deliver(claimed))) break;
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
      const due = await this.contacts
        .find({ status: 'pending', remind_at: { $lte: new Date() } }, { projection: { _id: 0, id: 1 } })
        .sort({ remind_at: 1 })
        .limit(this.batchSize)
        .toArray();
      if (due.length === 0) break;
      total += await this.sendDue(due.map((d) => d.id));
      if (due.length < this.batchSize) break;
    }
    return total;
  }

  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (;;) {
        const ids = this.heap.popDue(Date.now(), this.batchSize);
        if (ids.length === 0) break;
        await this.sendDue(ids);
      }
    } catch (err) {
      this.logger.error({ err: (err as Error).message }, 'reminder tick failed; the sweep will catch up');
    } finally {
      this.ticking = false;
    }
  }

  /** Loads pending contacts into the due heap (after a restart) and starts the ticker. */
  async start(): Promise<void> {
    await this.resumeInterrupted().catch((err) => this.logger.error({ err: (err as Error).message }, 'resuming interrupted reminders failed; the sweep retries'));
    const cursor = this.contacts.find({ status: 'pending' }, { projection: { _id: 0, id: 1, remind_at: 1 } });
    for await (const c of cursor) this.hold(new Date(c.remind_at).getTime(), c.id);
    this.timer = setInterval(() => void this.tick(), this.opts.dueScanMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
