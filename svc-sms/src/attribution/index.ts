import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { AttributionLedger, RevenueService, revenueRouter, startRevenueConsumer, type Bus, type Logger, type Outbox } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import { integrationModel, type IntegrationDoc } from '../integrations/model';
import { smsTouchPublisher } from './touches';
import { smsRevenueSide } from './side';

/** Recovered revenue on the SMS side (docs/revenue.md): touches out through the outbox, the ledger in from NATS. */
export async function buildAttribution({ conn, outbox, logger }: { conn: Connection; outbox: Outbox; logger: Logger }) {
  const ledger = new AttributionLedger(conn);
  await ledger.init();
  const contacts = contactModel(conn).collection as unknown as Collection<ContactDoc>;
  const integrations = integrationModel(conn).collection as unknown as Collection<IntegrationDoc>;
  const service = new RevenueService(conn, ledger, smsRevenueSide({ contacts, integrations }));
  return {
    ledger,
    revenue: service,
    onLogged: smsTouchPublisher({ outbox, contacts, integrations, logger }),
    router: revenueRouter('/api/sms/revenue', service),
    start: (bus: Bus) => startRevenueConsumer({ conn, bus, logger, ledger, service: 'svc-sms' }),
  };
}
