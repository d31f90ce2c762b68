import type { Connection } from 'mongoose';
import { consume, type Bus, type Logger } from '@act/service-kit';
import { Subjects } from '@act/contracts';
import { handleFunnelEvent, type EventDeps } from './handlers';

export const DURABLE = 'svc-email';

/** Durable consumers (shared by every svc-email instance) for the SMS side's funnel facts. */
export function startEventConsumers({ conn, bus, logger, deps }: { conn: Connection; bus: Bus; logger: Logger; deps: EventDeps }) {
  return consume({
    conn,
    bus,
    durable: DURABLE,
    subjects: [Subjects.purchaseCreated, Subjects.contactCreated],
    ignoreSource: 'svc-email',
    logger,
    handler: ({ subject, payload }) => handleFunnelEvent(subject, payload, deps),
  });
}
