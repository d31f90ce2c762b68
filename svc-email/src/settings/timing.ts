import type { Connection } from 'mongoose';
import type { FrequencyCapSetting } from '@act/service-kit';
import { EMAIL_TIMING_DEFAULTS, type EmailTimingSettings, type EmailTimingSettingsInput } from '@act/contracts/src/timing';
import { settingModel } from './model';

/** The `settings` document of email's quiet hours. */
export const QUIET_HOURS_KEY = 'quietHours';

type QuietHoursValue = Pick<EmailTimingSettings, 'quiet_hours_enabled' | 'quiet_start_hour' | 'quiet_end_hour'>;

/**
 * Email's timing settings: its own quiet hours (one `settings` document) and the account's frequency cap (kept
 * equal with the SMS side's by FrequencyCapSetting).
 */
export class TimingSettingsService {
  constructor(
    private readonly conn: Connection,
    private readonly cap: Pick<FrequencyCapSetting, 'get' | 'set'>,
  ) {}

  async get(): Promise<EmailTimingSettings> {
    const [doc, frequency_cap_hours] = await Promise.all([
      settingModel(this.conn).collection.findOne({ _id: QUIET_HOURS_KEY } as never),
      this.cap.get(),
    ]);
    const stored = (doc?.value ?? {}) as Partial<QuietHoursValue>;
    return { ...EMAIL_TIMING_DEFAULTS, ...stored, frequency_cap_hours };
  }

  async save(input: EmailTimingSettingsInput): Promise<EmailTimingSettings> {
    const before = await this.get();
    const quiet: QuietHoursValue = {
      quiet_hours_enabled: input.quiet_hours_enabled ?? before.quiet_hours_enabled,
      quiet_start_hour: input.quiet_start_hour ?? before.quiet_start_hour,
      quiet_end_hour: input.quiet_end_hour ?? before.quiet_end_hour,
    };
    await settingModel(this.conn).collection.updateOne(
      { _id: QUIET_HOURS_KEY } as never,
      { $set: { value: quiet, updated_at: new Date() } },
      { upsert: true },
    );
    if (input.frequency_cap_hours !== undefined) await this.cap.set(input.frequency_cap_hours ?? null);
    return this.get();
  }
}
