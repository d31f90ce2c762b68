import type { Connection } from 'mongoose';
import { consume, type Bus, type Logger } from '@act/service-kit';
import { AUDIT_SERVICES, AUDIT_SUBJECT, type AuditRecord } from '@act/contracts/src/audit';
import type { AuditLog } from './service';

/** Gathers every service's audit records (its own included: they come the same way) into the one log. */
export function startAuditConsumer({ conn, bus, logger, log }: { conn: Connection; bus: Bus; logger: Logger; log: AuditLog }) {
  return consume({
    conn,
    bus,
    durable: 'svc-auth-audit',
    subjects: [AUDIT_SUBJECT],
    logger,
    handler: async ({ payload }) => {
      const { eventId, source: _source, occurredAt: _occurredAt, ...record } = payload as Record<string, unknown> & { eventId: string };
      // The log is the product's services' (its API names them): a record from anything else on the bus (another
      // deployment's tool, a test service sharing the NATS server) is not one of its entries.
      if (!(AUDIT_SERVICES as readonly unknown[]).includes(record.service)) {
        logger.warn({ service: record.service, action: record.action }, 'audit record from a service the log does not list: not stored');
        return;
      }
      await log.store({ ...(record as Omit<AuditRecord, 'id'>), id: eventId });
    },
  });
}
