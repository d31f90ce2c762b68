import { buildIncentives, createSecretBox, env, incentivesRouter, FrequencyCapSetting, ReplayGuard, startFrequencyCapConsumer, startPrivacyResponder, startRetentionPurgeFromEnv, timelinePartRouter, dropRetiredIndexes, dropStandInIndexes, type ServiceDeps, type ServiceParts } from '@act/service-kit';
import { SMS_HOLDINGS } from './privacy/holdings';
import { smsPurchaseRedeemer } from './incentives/redeem';
import { optOutErased } from './privacy/suppress';
import { readSettings, serviceClock, type Clock } from './settings';
import { IntegrationCache } from './integrations/cache';
import { IntegrationService } from './integrations/service';
import { integrationRouter } from './integrations/routes';
import { CampaignService } from './campaigns/service';
import { campaignRouter } from './campaigns/routes';
import { smsExperiments } from './campaigns/experiments';
import { TemplateService } from './templates/service';
import { templateRouter } from './templates/routes';
import { ContactService } from './contacts/service';
import { contactRouter } from './contacts/routes';
import { contactModel, STANDIN_CONTACT_INDEXES } from './contacts/model';
import { LogService } from './logs/service';
import { logRouter } from './logs/routes';
import { WebhookEventService } from './webhook-events/service';
import { webhookEventRouter } from './webhook-events/routes';
import { webhookEventPageRouter } from './event-pages/routes';
import { WebhookEventPageService } from './event-pages/service';
import { FunnelWebhookService } from './webhook/service';
import { CartStore } from '@act/sources';
import { webhookRouter } from './webhook/routes';
import { TwilioCallbackService } from './twilio-callbacks/service';
import { twilioCallbackRouter } from './twilio-callbacks/routes';
import { StatsService } from './stats/service';
import { statsRouter } from './stats/routes';
import { createTwilioProvider } from './provider/twilio';
import { SenderPacer, defaultMessagesPerSecond } from './provider/pacing';
import { ProviderConfigService } from './provider/config';
import { ProviderService } from './provider/service';
import { providerRouter } from './provider/routes';
import { SequenceEngine } from './sequences/engine';
import { AgendaScheduler, PolledScheduler } from './sequences/scheduler';
import { DuePoller } from '@act/flow';
import { FunnelEventPublisher } from './events/publisher';
import { startFunnelConsumers } from './events/consumers';
import { initEarlierContacts, pickUpEarlierContacts } from './integrations/earlier-contacts';
import { moveContactLinksOntoCarts } from './contacts/links-onto-carts';
import { markLegacyTestDeliveries } from './integrations/test-deliveries';
import { WebhookSigningSettings } from './webhook-signing/settings';
import { webhookSigningRouter } from './webhook-signing/routes';
import { buildAttribution } from './attribution';
import { SmsTimelineService } from './timeline/service';
import { smsTrackedLinks } from './links';

/** Wires svc-sms from service-kit's dependencies: models, domain services, routers, scheduler, consumers. */
export async function buildSmsService(
  { conn, bus, outbox, logger, publicUrl }: ServiceDeps,
  now: Clock = serviceClock(),
): Promise<ServiceParts> {
  const settings = readSettings();
  const provider = createTwilioProvider({ ...settings.twilio, logger });
  const frequencyCap = new FrequencyCapSetting(conn, outbox);
  const config = new ProviderConfigService(conn, frequencyCap);
  const agendaJobs = new AgendaScheduler({
    conn,
    logger,
    processEveryMs: settings.agendaProcessEveryMs,
    sweepEveryMs: settings.sweepEveryMs,
  });
  // The contacts' next_at is the schedule, read by the due poller; with the poller off (SMS_DUE_SCAN_MS=0), a job
  // per step in Agenda.
  const polling = settings.dueScanMs > 0;
  const polled = new PolledScheduler();
  const scheduler = polling ? polled : agendaJobs;
  const publisher = new FunnelEventPublisher(outbox);
  // Webhook signing secrets are sealed under SECRETS_KEY; the cache opens them once per snapshot.
  const box = createSecretBox();
  let invalidate = () => undefined as void;
  const signingSettings = new WebhookSigningSettings(conn, () => invalidate());
  const integrations = new IntegrationCache(conn, settings.integrationCacheMs, box, signingSettings);
  invalidate = () => integrations.invalidate();
  const integrationService = new IntegrationService(
    conn,
    { publicUrl, box, testBaseUrl: env('WEBHOOK_TEST_BASE_URL', '') || null, logger },
    () => integrations.invalidate(),
  );
  const replays = new ReplayGuard(conn, 'sms_webhook_deliveries');

  const contacts = new ContactService(conn, {
    now,
    delayUnitMs: settings.delayUnitMs,
    scheduler,
    logger,
    listLimit: settings.listLimit,
  });
  integrationService.pickUpEarlier = (integration) =>
    pickUpEarlierContacts({ conn, logger, upsert: (input) => contacts.upsertFromFunnel(input), requiresSigning: (i) => integrations.requiresSigning(i) }, integration);
  const events = new WebhookEventService(conn, { now, listLimit: settings.listLimit });
  const providerService = new ProviderService(conn, { provider, config, publicUrl, now, logger });
  const attribution = await buildAttribution({ conn, outbox, logger });
  const tracked = smsTrackedLinks(conn, publicUrl);
  const experiments = smsExperiments(conn, attribution.ledger, () => attribution.revenue.windowDays(), tracked);
  const incentives = await buildIncentives(conn, logger);
  const engine = new SequenceEngine({
    conn,
    incentives,
    trackedLinks: tracked,
    onLogged: attribution.onLogged,
    readTouches: (keys, since) => attribution.ledger.touchesSince(keys, since),
    provider,
    config,
    scheduler,
    now,
    delayUnitMs: settings.delayUnitMs,
    leaseMs: settings.stepLeaseMs,
    rulesCacheMs: settings.rulesCacheMs,
    sendInFlightMs: settings.sendInFlightMs,
    pacer: new SenderPacer(conn, (sender) => settings.twilio.maxMps || defaultMessagesPerSecond(sender), now),
    publicUrl,
    logger,
  });
  const webhook = new FunnelWebhookService({
    integrations,
    contacts,
    carts: new CartStore(contactModel(conn).collection),
    redeemCodes: smsPurchaseRedeemer(conn, incentives.redemptions),
    events,
    publisher,
    replays,
    now,
    logger,
  });
  const callbacks = new TwilioCallbackService({
    conn,
    contacts,
    events,
    config,
    authToken: settings.twilio.authToken,
    publicUrl,
    now,
    logger,
  });

  if (!provider.configured)
    logger.warn(
      settings.twilio.authToken
        ? 'Twilio is not configured (TWILIO_ACCOUNT_SID): nothing will be sent; signed callbacks are still accepted'
        : 'Twilio is not configured (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN): nothing will be sent and callbacks are refused',
    );

  // Unique indexes carry the idempotency rules (contact per funnel contact, one send per step): build them first.
  await Promise.all([...Object.values(conn.models).map((m) => m.init()), replays.init(), initEarlierContacts(conn)]);
  // An index a database may still hold that no model declares: the contact's id index serves the step's
  // compare-and-set filter without an exact-key copy.
  await dropRetiredIndexes(contactModel(conn).collection as never, ['step_cas']);
  await dropStandInIndexes(contactModel(conn).collection as never, STANDIN_CONTACT_INDEXES);
  await moveContactLinksOntoCarts(conn, logger);
  await integrationService.ensureKeys();

  const poller = polling
    ? new DuePoller(engine.runner, { everyMs: settings.dueTickMs, burst: settings.dueBurst, bursts: settings.dueBursts, logger })
    : null;
  if (poller) polled.tell(poller);
  let consumers: { stop(): void } | null = null;
  let privacy: { stop(): void } | null = null;
  let retention: { stop(): void } | null = null;
  let revenueConsumer: { stop(): void } | null = null;
  let capConsumer: { stop(): void } | null = null;
  let winnerChecks: { stop(): void } | null = null;

  return {
    routers: [
      webhookRouter(webhook),
      twilioCallbackRouter(callbacks),
      integrationRouter(integrationService),
      webhookSigningRouter(signingSettings),
      campaignRouter(new CampaignService(conn)),
      experiments.router,
      ...tracked.routers,
      templateRouter(new TemplateService(conn, providerService, tracked)),
      contactRouter(contacts, publisher),
      logRouter(new LogService(conn, { listLimit: settings.listLimit })),
      webhookEventPageRouter(new WebhookEventPageService(conn)),
      webhookEventRouter(events),
      statsRouter(new StatsService(conn, { config, now })),
      providerRouter(providerService),
      attribution.router,
      timelinePartRouter(new SmsTimelineService(conn, attribution.ledger, tracked.links)),
      // Loopback http shops only outside production: the tests' fake Shopify and WooCommerce.
      incentivesRouter('/api/sms', 'sms', { ...incentives, allowHttpShops: process.env.NODE_ENV !== 'production' }),
    ],
    async start() {
      await agendaJobs.start(engine);
      poller?.start();
      consumers = startFunnelConsumers({ conn, bus, contacts, integrations, events, logger });
      void markLegacyTestDeliveries(conn).catch((err) => logger.warn({ err: (err as Error).message }, 'marking earlier test deliveries failed'));
      privacy = startPrivacyResponder({
        conn,
        bus,
        outbox,
        logger,
        service: 'svc-sms',
        holdings: SMS_HOLDINGS,
        suppress: (person) => optOutErased(conn, person),
        // The ledger's reminded contacts were renamed: no instance may go on using the numbers it remembers by the old names.
        onErased: async (erased) => {
          if (erased.revenue_reminded_contacts?.length) await attribution.ledger.numbersChanged();
        },
      });
      retention = startRetentionPurgeFromEnv({
        conn,
        logger,
        rules: [
          { collection: 'sms_webhook_events', field: 'timestamp' },
          { collection: 'sms_logs', field: 'timestamp' },
        ],
      });
      revenueConsumer = attribution.start(bus);
      capConsumer = startFrequencyCapConsumer({ conn, bus, logger, service: 'svc-sms', setting: frequencyCap });
      winnerChecks = experiments.startWinnerChecks(logger);
    },
    async stop() {
      poller?.stop();
      consumers?.stop();
      privacy?.stop();
      retention?.stop();
      revenueConsumer?.stop();
      capConsumer?.stop();
      winnerChecks?.stop();
      await agendaJobs.stop();
    },
  };
}
