import type { Connection } from 'mongoose';
import { REMINDER_DELAY_DEFAULT } from '@act/contracts/src/email-api';
import { REMINDER_DELAY_KEY, saveReminderDelay, settingModel } from './model';
import type { IntegrationsService } from '../integrations/service';

export class SettingsService {
  constructor(
    private readonly conn: Connection,
    private readonly integrations: IntegrationsService,
  ) {}

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
