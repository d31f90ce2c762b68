import type { Connection } from 'mongoose';
import { createIdAllocator } from '@act/service-kit';
import type { SmsLogStatus } from '@act/contracts/src/sms-api';
import type { ContactDoc } from '../contacts/model';
import type { TemplateDoc } from '../templates/model';
import { logModel, type LogDoc } from '../logs/model';

export type LogFields = Omit<LogDoc, 'id'>;

/** The message column of a step the blackout holds (the row's held_until says until when). */
export const HELD_MESSAGE = 'Held by the blackout window: nothing sent yet';
/** The message column of a step the frequency cap holds. */
export const CAP_HELD_MESSAGE = 'Held by the frequency cap: nothing sent yet';

/** A step a timing rule held: until when, which rule, and why (the shopper's zone and its basis, or the last send). */
export interface HeldStep {
  c: ContactDoc;
  until: Date;
  rule: 'quiet_hours' | 'frequency_cap';
  reason: string;
}

/**
 * The SMS log rows the sequence engine writes: one per message or skip, one per step a timing rule holds. Those of a
 * step are told to `onLogged` once written (attribution publishes its touches from them).
 */
export class StepLogs {
  private readonly Log;
  private readonly allocId;

  constructor(
    conn: Connection,
    private readonly now: () => Date,
    private readonly onLogged?: (logs: LogFields[]) => Promise<void>,
  ) {
    this.Log = logModel(conn);
    // Bursts write hundreds of logs at once: a block per counter round trip that covers a burst.
    this.allocId = createIdAllocator(conn, 'sms_logs', 500);
  }

  /** One log row's fields: a burst inserts many of them, `writeOne` one. */
  fields(c: ContactDoc, tpl: TemplateDoc, message: string, status: SmsLogStatus, extra: Partial<LogDoc>): LogFields {
    const at = this.now();
    return {
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
    };
  }

  /**
   * A row saying what became of the contact's sequence itself (started again, or ended by an exit rule) and why: no
   * template, no message sent, counted in no send figure.
   */
  flowFields(c: ContactDoc, status: 'sequence_restarted' | 'sequence_exited', reason: string): LogFields {
    const at = this.now();
    return {
      phone: c.phone,
      contact_id: c.contact_id,
      contact_ref: c.id,
      integration_id: c.integration_id,
      template_id: null,
      message: reason,
      sequence_order: null,
      status,
      message_sid: null,
      timestamp: at,
      updated_at: at,
      error_message: null,
    };
  }

  /** A burst's rows about the sequences themselves, in one insert (not sends: not told to `onLogged`). */
  async writeFlow(logs: LogFields[]): Promise<void> {
    if (logs.length) await this.insert(logs);
  }

  /** A burst's rows in one insert. */
  async writeAll(logs: LogFields[]): Promise<void> {
    if (logs.length === 0) return;
    await this.insert(logs);
    await this.onLogged?.(logs);
  }

  async writeOne({
    c,
    tpl,
    message,
    status,
    ...extra
  }: { c: ContactDoc; tpl: TemplateDoc; message: string; status: SmsLogStatus } & Partial<LogDoc>): Promise<void> {
    const fields = this.fields(c, tpl, message, status, extra);
    await this.Log.create({ id: await this.allocId(), ...fields });
    await this.onLogged?.([fields]);
  }

  /**
   * One row per step a timing rule holds (once per hold: a held step is not due again before its end), so the SMS
   * Logs and the contact's timeline say why nothing went out, until when, and on which clock. Not a send: no
   * template, counted in no send figure, not told to `onLogged`.
   */
  async writeHeld(held: HeldStep[], at: Date): Promise<void> {
    if (held.length === 0) return;
    await this.insert(
      held.map(({ c, until, rule, reason }) => ({
        phone: c.phone,
        contact_id: c.contact_id,
        contact_ref: c.id,
        integration_id: c.integration_id,
        template_id: null,
        message: rule === 'quiet_hours' ? HELD_MESSAGE : CAP_HELD_MESSAGE,
        sequence_order: null,
        status: rule === 'quiet_hours' ? ('held_blackout' as const) : ('held_frequency_cap' as const),
        message_sid: null,
        timestamp: at,
        updated_at: at,
        error_message: reason,
        held_until: until,
      })),
    );
  }

  private async insert(logs: LogFields[]): Promise<void> {
    const ids = await Promise.all(logs.map(() => this.allocId()));
    await this.Log.collection.insertMany(
      logs.map((l, i) => ({ ...l, id: ids[i]! })),
      { ordered: false },
    );
  }
}
