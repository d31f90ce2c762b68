import type { Connection } from 'mongoose';
import { Subjects, type FunnelPurchaseEvent, type SendEvent } from '@act/contracts';
import { consume, type ConsumedEvent } from '../consumer';
import type { Bus } from '../nats';
import type { Logger } from '../logger';
import type { AttributionLedger } from './ledger';

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : v != null && typeof v === 'number' ? String(v) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
function date(v: unknown): Date | null {
  const d = typeof v === 'string' ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
}
const money = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Feeds the ledger from the stream. Unlike the services' other consumers it takes their OWN events too: every
 * purchase and send reaches the ledger by this one path, whichever side saw it, so both ledgers hold the same facts.
 */
export async function handleRevenueEvent(ledger: AttributionLedger, { subject, payload }: ConsumedEvent, self?: string): Promise<void> {
  if (subject === Subjects.testDataCleared) {
    // The side that cleared emptied its own ledger before answering; only the other side's goes here. Another
    // instance of the side that cleared forgets the numbers it remembers (it would also see the new epoch with its
    // next batch of touches).
    if (self === undefined || (payload as { source?: unknown }).source !== self) await ledger.clear();
    else ledger.forgetNumbers();
    return;
  }
  if (subject === Subjects.purchaseCreated) {
    const e = payload as Partial<FunnelPurchaseEvent>;
    const purchasedAt = date(e.purchasedAt) ?? date(e.occurredAt);
    if (!purchasedAt) return;
    await ledger.recordPurchase({
      funnelId: str(e.funnelId),
      contactId: str(e.contactId),
      email: str(e.email),
      phone: str(e.phone),
      amount: money(e.amount),
      currency: str(e.currency)?.toUpperCase().slice(0, 3) ?? null,
      purchasedAt,
      source: str(e.source) ?? 'unknown',
      eventId: payload.eventId,
      recoveredFrom: str(e.recoveredFrom),
    });
    return;
  }
  if (subject === Subjects.emailSent || subject === Subjects.smsSent) {
    const e = payload as Partial<SendEvent> & { sendId?: unknown };
    const sentAt = date(e.sentAt);
    const channel = subject === Subjects.emailSent ? 'email' : 'sms';
    if (!sentAt) return;
    // The send's own id on its side (stable across retries of the event), else the provider's.
    const id = str(e.sendId) ?? str(e.messageId) ?? payload.eventId;
    await ledger.recordTouch({
      key: `${channel}:${id}`,
      channel,
      funnelId: str(e.funnelId),
      integrationId: int(e.integrationId),
      campaignId: int(e.campaignId),
      templateId: int(e.templateId),
      step: int(e.step),
      sentAt,
      ...(e.simulated === true ? { simulated: true as const } : {}),
      ...(typeof e.variant === 'string' && e.variant ? { variant: e.variant } : {}),
      ...(e.holdout === true ? { holdout: true as const } : {}),
      contactId: str(e.contactId),
      email: str(e.email),
      phone: str(e.phone),
    });
  }
}

export const REVENUE_SUBJECTS = [Subjects.purchaseCreated, Subjects.emailSent, Subjects.smsSent, Subjects.testDataCleared];

export function startRevenueConsumer({ conn, bus, logger, ledger, service }: { conn: Connection; bus: Bus; logger: Logger; ledger: AttributionLedger; service: string }) {
  return consume({
    conn,
    bus,
    durable: `${service}-revenue`,
    subjects: REVENUE_SUBJECTS,
    processedCollection: 'revenue_processed_events',
    // Purchases and touches of one buyer commute (set unions), so the usual parallelism is safe.
    handler: (event) => handleRevenueEvent(ledger, event, service),
    logger,
  });
}
