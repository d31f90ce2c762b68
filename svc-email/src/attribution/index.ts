import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { AttributionLedger, RevenueService, revenueRouter, startRevenueConsumer, type Bus, type Logger, type Outbox } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import type { EmailLogsService } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';
import { emailTouchPublisher } from './touches';
import { emailRevenueSide } from './side';
import { backfillContactReach, contactReach } from './reach';
import { simulatedContactsRouter } from './simulated';

/** Recovered revenue on the email side (docs/revenue.md): touches out through the outbox, the ledger in from NATS. */
export async function buildAttribution({ conn, outbox, logger, logs, integrations, simulated }: { conn: Connection; outbox: Outbox; logger: Logger; logs: EmailLogsService; integrations: IntegrationCache; simulated: boolean }) {
  const ledger = new AttributionLedger(conn);
  await ledger.init();
  const contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  logs.observe(emailTouchPublisher({ outbox, contacts, integrations, logger }));
  const reach = contactReach(contacts);
  logs.observe(reach.observer);
  const service = new RevenueService(conn, ledger, emailRevenueSide({ contacts, integrations, simulated }));
  return {
    ledger,
    revenue: service,
    router: revenueRouter('/api/revenue', service),
    /** Goes before the contacts router: it marks the contacts that router answers. */
    contactsRouter: simulatedContactsRouter(logs.coll),
    /** Where Resend's click events (and our own link's clicks) mark the contact reached by a click. */
    reach,
    start: (bus: Bus) => {
      void backfillContactReach({ contacts, logs: logs.coll, migrations: conn.collection('migrations'), logger }).catch((err: unknown) => logger.error({ err }, 'could not keep the contacts\' reach from their email logs; older contacts count as not reminded'));
      return startRevenueConsumer({ conn, bus, logger, ledger, service: 'svc-email' });
    },
  };
}
