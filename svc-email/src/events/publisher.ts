import type { Outbox } from '@act/service-kit';
import { Subjects, type EventEnvelope, type FunnelContactEvent, type FunnelPurchaseEvent } from '@act/contracts';

type Body<T> = Omit<T, keyof EventEnvelope>;

/** Facts svc-email publishes; always through the outbox (after the domain write), never straight to NATS. */
export class EventPublisher {
  constructor(private readonly outbox: Outbox) {}

  contactCreated(e: Body<FunnelContactEvent>): Promise<string> {
    return this.outbox.add(Subjects.contactCreated, { ...e });
  }

  contactUpdated(e: Body<FunnelContactEvent>): Promise<string> {
    return this.outbox.add(Subjects.contactUpdated, { ...e });
  }

  purchaseCreated(e: Body<FunnelPurchaseEvent>): Promise<string> {
    return this.outbox.add(Subjects.purchaseCreated, { ...e });
  }
}
