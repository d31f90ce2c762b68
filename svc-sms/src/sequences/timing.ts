import { buyerKeys } from '@act/contracts/src/attribution';
import type { TwilioConfig } from '@act/contracts/src/sms-api';
import { recipientZone, timingDecisions, timingStep, zoneHintsOf, type FlowStep, type TouchReader } from '@act/flow';
import { blackoutWindowOf } from '../provider/config';
import type { SmsWork } from './work';

/**
 * The timing rules on SMS: the blackout read on each shopper's clock (the zone from the phone number, else the
 * blackout's zone), and the frequency cap over the person's sends on both channels. A held step is due again at
 * the hold's end; nothing is claimed or sent before then.
 */
export function smsTiming(readTouches: TouchReader | undefined): FlowStep<SmsWork, TwilioConfig> {
  return timingStep<SmsWork, TwilioConfig>('timing', (open, ctx) => {
    const cfg = ctx.settings;
    const { enabled, startHour, endHour, timezone } = blackoutWindowOf(cfg);
    return timingDecisions(
      ctx.now,
      open.map((w) => ({
        zone: recipientZone(zoneHintsOf(w.c.zone_hints, w.c.phone), timezone),
        quietHours: { enabled, startHour, endHour },
        keys: buyerKeys({ funnelId: w.c.funnel_id, contactId: w.c.contact_id, email: w.c.email, phone: w.c.phone }),
      })),
      { hours: cfg.frequency_cap_hours ?? null },
      readTouches,
    );
  });
}
