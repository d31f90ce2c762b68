import type { Collection } from 'mongodb';
import { buyerKeys } from '@act/contracts/src/attribution';
import { BLACKOUT_DEFAULTS } from '@act/contracts/src/sms-api';
import { recipientZone, timingDecisions, timingStep, zoneHintsOf, type FlowStep, type TouchReader } from '@act/flow';
import type { ContactDoc } from '../contacts/model';
import type { IntegrationCache } from '../integrations/cache';
import type { TimingSettingsService } from '../settings/timing';
import type { EmailSettings, EmailWork } from './work';

/**
 * The clock of a shopper nothing else places: the SMS blackout's default zone, so both channels read a shopper
 * without a phone or a zone the same way.
 */
export const EMAIL_FALLBACK_ZONE = BLACKOUT_DEFAULTS.blackout_timezone;

export interface EmailTimingDeps {
  contacts: Collection<ContactDoc>;
  integrations: Pick<IntegrationCache, 'get'>;
  settings: Pick<TimingSettingsService, 'get'>;
  /** The person's sends on both channels (the attribution ledger). */
  readTouches: TouchReader;
}

/** The log of a step a timing rule held: why, and until when (its row is due again then). */
export function heldByTimingMessage(email: string, reason: string): string {
  return `Not sent yet to ${email}: ${reason}`;
}

/**
 * The timing rules on email, before the reminder and every campaign step: email's own quiet hours on the shopper's
 * clock (the zone from the contact's phone, else EMAIL_FALLBACK_ZONE) and the account's frequency cap over the
 * person's sends on both channels. A held step is due again at the hold's end (nothing claimed, nothing sent) and
 * logged 'held' with the reason.
 */
export function emailTiming(deps: EmailTimingDeps): FlowStep<EmailWork, EmailSettings> {
  // The contacts a burst's decisions read, for the logs of those held (bursts run side by side: kept per work).
  const read = new WeakMap<EmailWork, Pick<ContactDoc, 'id' | 'contact_id' | 'email'>>();
  const held = timingStep<EmailWork, EmailSettings>('timing', async (open, ctx) => {
    const settings = await deps.settings.get();
    const quietHours = { enabled: settings.quiet_hours_enabled, startHour: settings.quiet_start_hour, endHour: settings.quiet_end_hour };
    if (!quietHours.enabled && !settings.frequency_cap_hours) return [];
    const [rows, integrations] = await Promise.all([
      deps.contacts
        .find({ id: { $in: open.map((w) => w.ref) } }, { projection: { _id: 0, id: 1, contact_id: 1, email: 1, phone: 1, integration_id: 1, zone_hints: 1 } })
        .toArray(),
      deps.integrations.get(),
    ]);
    const byId = new Map(rows.map((c) => [c.id, c]));
    return timingDecisions(
      ctx.now,
      open.map((w) => {
        const c = byId.get(w.ref);
        if (c) read.set(w, c);
        const funnelId = c?.integration_id != null ? (integrations.byId.get(c.integration_id)?.funnel_id ?? null) : null;
        return {
          zone: recipientZone(zoneHintsOf(c?.zone_hints, c?.phone), EMAIL_FALLBACK_ZONE),
          quietHours,
          keys: c ? buyerKeys({ funnelId, contactId: c.contact_id, email: c.email, phone: c.phone }) : [],
        };
      }),
      { hours: settings.frequency_cap_hours },
      deps.readTouches,
    );
  });
  return {
    name: held.name,
    async run(open, ctx) {
      await held.run(open, ctx);
      for (const w of open) {
        if (!w.held) continue;
        w.release = { set: { due_at: w.held.until } };
        const c = read.get(w);
        if (c) w.log = { contact_id: c.contact_id, contact_ref: c.id, email: c.email, message: heldByTimingMessage(c.email, w.held.reason), status: 'held' };
      }
    },
  };
}
