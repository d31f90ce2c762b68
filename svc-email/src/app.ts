import type { ServiceDeps, ServiceParts } from '@act/service-kit';
import { createIdAllocator, createSecretBox, ReplayGuard, startFrequencyCapConsumer, startPrivacyResponder, startRetentionPurgeFromEnv, timelinePartRouter, dropRetiredIndexes, dropStandInIndexes } from '@act/service-kit';
import type { EmailConfig } from './config';
import { contactModel, STANDIN_CONTACT_INDEXES } from './contacts/model';
import { ContactsService } from './contacts/service';
import { contactsRouter } from './contacts/routes';
import { emailLogModel } from './email-logs/model';
import { EmailLogsService } from './email-logs/service';
import { emailLogsRouter } from './email-logs/routes';
import { webhookEventModel } from './webhook-events/model';
import { WebhookEventsService } from './webhook-events/service';
import { webhookEventsRouter } from './webhook-events/routes';
import { integrationModel } from './integrations/model';
import { IntegrationCache } from './integrations/cache';
import { IntegrationsService } from './integrations/service';
import { integrationsRouter } from './integrations/routes';
import { settingModel } from './settings/model';
import { SettingsService } from './settings/service';
import { settingsRouter, webhookSigningRouter } from './settings/routes';
import { emailTemplateModel } from './templates/model';
import { buildSendingFeatures } from './live-sending';
import { testToolsRouter } from './test-tools/routes';
import { WebhookService } from './webhook/service';
import { webhookRouter } from './webhook/routes';
import { EventPublisher } from './events/publisher';
import { startEventConsumers } from './events/consumers';
import { EMAIL_HOLDINGS } from './privacy/holdings';
import { buildAttribution } from './attribution';
import { emailExperiments } from './campaigns/experiments';
import { EmailTimelineService } from './timeline/service';
import { emailTrackedLinks } from './links';

export interface EmailServiceOptions {
  config: EmailConfig;
}

/** Wires svc-email's features over the kit's dependencies. */
export async function buildEmailService({ conn, bus, outbox, logger, publicUrl }: ServiceDeps, { config }: EmailServiceOptions): Promise<ServiceParts> {
  // Unique indexes carry the idempotency rules: build them before the first request.
  await Promise.all([contactModel, emailLogModel, webhookEventModel, integrationModel, settingModel, emailTemplateModel].map((m) => m(conn).init()));
  // Indexes a database may still hold that no model declares: the contact's id index serves the `{ id, status }`
  // claim filter without an exact-key copy, and nothing marks a claim in flight on the contact (the flow row's lease
  // does), so neither index has a reader.
  await dropRetiredIndexes(contactModel(conn).collection as never, ['id_1_status_1', 'send_pending_1']);
  await dropStandInIndexes(contactModel(conn).collection as never, STANDIN_CONTACT_INDEXES);

  const logs = new EmailLogsService(conn, createIdAllocator(conn, 'email_logs'));
  // The webhook path's ids: one counter write per 1,000 deliveries (a restart leaves a gap, nothing sorts by id).
  const events = new WebhookEventsService(conn, createIdAllocator(conn, 'webhook_events', 1_000));
  // Webhook signing secrets are sealed under SECRETS_KEY; the cache opens them once per snapshot.
  const box = createSecretBox();
  const cache = new IntegrationCache(conn, config.integrationCacheMs, box);
  const tracked = emailTrackedLinks(conn, publicUrl);
  await tracked.init();
  // Sending: campaigns, templates, Resend, unsubscribe list, live campaign sends, and email's one flow engine.
  const sending = await buildSendingFeatures({ conn, outbox, logger, publicUrl, integrations: cache, trackedLinks: tracked, config: config.sending });
  // The reminder step reports suppressed reminders to the contacts service, built just below (it needs the flows).
  const flows = sending.engine(logs, (ids) => contacts.markUnsubscribed(ids));
  const contacts = new ContactsService(conn, flows, createIdAllocator(conn, 'contacts', 1_000), config.delayUnitMs, sending.unsubscribes);
  sending.unsubscribes.observe((emails, listed) => contacts.unsubscribedChanged(emails, listed));
  const integrations = new IntegrationsService(conn, cache, contacts, { publicUrl, box, testBaseUrl: config.webhookTestBaseUrl, logger });
  const settings = new SettingsService(conn, integrations, cache);
  const publisher = new EventPublisher(outbox);
  const replays = new ReplayGuard(conn, 'webhook_deliveries');
  const webhook = new WebhookService(events, contacts, cache, publisher, replays);
  const attribution = await buildAttribution({ conn, outbox, logger, logs, integrations: cache, simulated: !config.sending.liveSending });

  const experiments = emailExperiments(conn, attribution.ledger, () => attribution.revenue.windowDays(), tracked);

  await Promise.all([integrations.ensureDefault(await settings.getReminderDelay()), replays.init()]);
  await integrations.ensureKeys();

  let consumers: { stop(): void } | null = null;
  let privacy: { stop(): void } | null = null;
  let retention: { stop(): void } | null = null;
  let revenueConsumer: { stop(): void } | null = null;
  let capConsumer: { stop(): void } | null = null;
  let winnerChecks: { stop(): void } | null = null;

  return {
    routers: [
      webhookRouter(webhook),
      attribution.contactsRouter,
      contactsRouter(contacts, publisher, cache),
      emailLogsRouter(logs),
      webhookEventsRouter(events),
      integrationsRouter(integrations),
      settingsRouter(settings),
      webhookSigningRouter(settings),
      ...sending.routers,
      attribution.router,
      experiments.router,
      ...tracked.routers,
      timelinePartRouter(new EmailTimelineService(conn, cache, attribution.ledger, tracked.links)),
      testToolsRouter({ contacts, logs, events, reminders: flows, ledger: attribution.ledger, outbox }),
    ],
    async start() {
      void contacts.flagAllListed().catch((err) => logger.warn({ err: (err as Error).message }, 'flagging unsubscribed contacts failed'));
      void contacts.markLegacyTests().catch((err) => logger.warn({ err: (err as Error).message }, 'marking earlier test deliveries failed'));
      consumers = startEventConsumers({ conn, bus, logger, deps: { contacts, integrations: cache, events } });
      privacy = startPrivacyResponder({
        conn,
        bus,
        outbox,
        logger,
        service: 'svc-email',
        holdings: EMAIL_HOLDINGS,
        suppress: (person) => sending.unsubscribes.addErased(person.emails, person.requestId),
        onErased: async (erased) => {
          // The ledger's reminded contacts were renamed: no instance may go on using the numbers it remembers by the old names.
          if (erased.revenue_reminded_contacts?.length) await attribution.ledger.numbersChanged();
        },
      });
      retention = startRetentionPurgeFromEnv({
        conn,
        logger,
        rules: [
          { collection: 'webhook_events', field: 'timestamp' },
          { collection: 'email_logs', field: 'timestamp' },
        ],
      });
      revenueConsumer = attribution.start(bus);
      capConsumer = startFrequencyCapConsumer({ conn, bus, logger, service: 'svc-email', setting: sending.frequencyCap });
      winnerChecks = experiments.startWinnerChecks(logger);
      await sending.start();
    },
    async stop() {
      sending.stop();
      consumers?.stop();
      privacy?.stop();
      retention?.stop();
      revenueConsumer?.stop();
      capConsumer?.stop();
      winnerChecks?.stop();
    },
  };
}
