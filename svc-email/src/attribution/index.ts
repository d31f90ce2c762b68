import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { AttributionLedger, RevenueService, revenueRouter, startRevenueConsumer, type Bus, type Logger, type Outbox } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';
import { emailTouchPublisher } from './touches';
import { emailRevenueSide } from './side';
import { simulatedContactsRouter } from './simulated';

/** Recovered revenue on the email side (docs/revenue.md): touches out through the outbox, the ledger in from NATS. */
export async function buildAttribution({ conn, outbox, logger, logs, integrations, simulated }: { conn: Connection; outbox: Outbox; logger: Logger; logs: EmailLogsService; integrations: IntegrationCache; simulated: boolean }) {
  const ledger = new AttributionLedger(conn);
  await ledger.init();
  const contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  logs.observe(emailTouchPublisher({ outbox, contacts, integrations, logger }));
  const service = new RevenueService(conn, ledger, emailRevenueSide({ contacts, logs: logs.coll, integrations, simulated }));
  return {
    ledger,
    revenue: service,
    router: revenueRouter('/api/revenue', service),
    /** Goes before the contacts router: it marks the contacts that router answers. */
    contactsRouter: simulatedContactsRouter(logs.coll),
    start: (bus: Bus) => startRevenueConsumer({ conn, bus, logger, ledger, service: 'svc-email' }),
  };
}
