import type { Outbox } from '@act/service-kit';
import { Subjects, type EventEnvelope, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';

type Body<T> = Omit<T, keyof EventEnvelope>;

/** Funnel facts seen by svc-sms, published through the outbox after the domain write (never straight to NATS). */
export class FunnelEventPublisher {
  constructor(private readonly outbox: Outbox) {}

  contact(kind: 'created' | 'updated', body: Body<FunnelContactEvent>): Promise<string> {
    return this.outbox.add(kind === 'created' ? Subjects.contactCreated : Subjects.contactUpdated, { ...body });
  }

  purchase(body: Body<FunnelPurchaseEvent>): Promise<string> {
    return this.outbox.add(Subjects.purchaseCreated, { ...body });
  }
}
