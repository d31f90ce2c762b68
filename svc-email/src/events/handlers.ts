import { Subjects, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';
import type { ContactsService } from '../contacts/service';
import type { IntegrationCache } from '../integrations/cache';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function date(v: unknown): Date {
  const d = typeof v === 'string' ? new Date(v) : new Date(NaN);
  return Number.isNaN(d.getTime()) ? new Date() : d;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export interface EventDeps {
  contacts: ContactsService;
  integrations: IntegrationCache;
}

/**
 * Facts from the SMS side. Both effects are idempotent on their own (conditional purchase update; contact
 * upsert keyed by integration and funnel contact id), on top of the consumer's processed-event record.
 */
export async function handleFunnelEvent(subject: string, payload: Record<string, unknown>, { contacts, integrations }: EventDeps): Promise<void> {
  if (subject === Subjects.purchaseCreated) {
    const p = payload as Partial<FunnelPurchaseEvent>;
    const integration = await integrations.resolve(str(p.funnelId));
    const email = str(p.email);
    await contacts.markPurchased({ integrationId: integration.id, contactId: str(p.contactId), email: email && EMAIL.test(email) ? email : null, purchasedAt: date(p.purchasedAt) });
    return;
  }
  if (subject === Subjects.contactCreated) {
    const p = payload as Partial<FunnelContactEvent>;
    const email = str(p.email);
    const funnelId = str(p.funnelId);
    const contactId = str(p.contactId);
    if (!email || !EMAIL.test(email) || !funnelId || !contactId) return;
    // Only a funnel the email side is set up for: a phone-only SMS funnel must not start email reminders.
    const integration = await integrations.activeForFunnel(funnelId);
    if (!integration) return;
    const { announced } = await contacts.createFromFunnel({ integration, contactId, email, phone: str(p.phone), firstName: str(p.firstName), createdAt: date(p.createdAt) });
    await announced;
  }
}
