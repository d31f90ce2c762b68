import type { Connection } from 'mongoose';
import { REMINDER_DELAY_DEFAULT } from '@act/contracts/src/email-api';
import { REMINDER_DELAY_KEY, WEBHOOK_SIGNING_KEY, saveReminderDelay, settingModel } from './model';
import type { IntegrationsService } from '../integrations/service';
import type { IntegrationCache } from '../integrations/cache';

export class SettingsService {
  constructor(
    private readonly conn: Connection,
    private readonly integrations: IntegrationsService,
    private readonly cache: IntegrationCache,
  ) {}

  /** "Require signed deliveries" for /api/webhook (off while nothing is stored). */
  async getRequireSigned(): Promise<boolean> {
    const doc = await settingModel(this.conn).collection.findOne({ _id: WEBHOOK_SIGNING_KEY } as never);
    return doc?.value === true;
  }

  async setRequireSigned(on: boolean): Promise<boolean> {
    await settingModel(this.conn).collection.updateOne(
      { _id: WEBHOOK_SIGNING_KEY } as never,
      { $set: { value: on, updated_at: new Date() } },
      { upsert: true },
    );
    this.cache.invalidate();
    return on;
  }

  /** Minutes; 30 while nothing is stored (spec section 9). */
  async getReminderDelay(): Promise<number> {
    const doc = await settingModel(this.conn).collection.findOne({ _id: REMINDER_DELAY_KEY } as never);
    const v = doc?.value;
    return typeof v === 'number' && Number.isFinite(v) ? v : REMINDER_DELAY_DEFAULT;
  }

  /**
   * The global delay is what the default integration (the fallback for unknown funnels) uses, so both change
   * together; contacts already recorded keep their remind_at.
   */
  async setReminderDelay(minutes: number): Promise<number> {
    await saveReminderDelay(this.conn, minutes);
    await this.integrations.setDefaultDelay(minutes);
    return minutes;
  }
}
