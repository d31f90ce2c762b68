import type Router from '@koa/router';
import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { AttributionLedger, buildIncentives, FrequencyCapSetting, incentivesRouter, ReplayGuard, type Logger, type Outbox } from '@act/service-kit';
import { contactModel, type ContactDoc } from '../contacts/model';
import { TimingSettingsService } from '../settings/timing';
import { timingSettingsRouter } from '../settings/routes';
import { emailLogModel, type EmailLogDoc } from '../email-logs/model';
import { ResendEventsService } from '../resend-events/service';
import { contactReach } from '../attribution/reach';
import { resendEventsRouter } from '../resend-events/routes';
import type { EmailLogsService } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';
import { CampaignsService, campaignModel, campaignsRouter } from '../campaigns';
import { TemplatesService, emailTemplateModel, templatesRouter } from '../templates';
import { ResendProvider } from '../providers/resend';
import { ResendService, resendRouter } from '../resend';
import {
  UnsubscribeService,
  unsubscribeAdminRouter,
  unsubscribeModel,
  unsubscribePublicRouter,
  type UnsubscribeLinkSettings,
} from '../unsubscribe';
import type { SendingConfig } from './config';
import { RecoveryUrls, moveLegacyRecoveryUrls } from './recovery-urls';
import { SequenceEngine } from './engine';
import { emailTiming } from './timing';
import type { EmailTrackedLinks } from '../links';

export { loadSendingConfig, type SendingConfig } from './config';

export interface SendingFeatures {
  routers: Router[];
  /**
   * Email's one scheduler (the reminder, then the campaign's templates), built once the logs and the contacts'
   * `markUnsubscribed` exist.
   */
  engine(logs: EmailLogsService, markUnsubscribed: (contactIds: number[]) => Promise<void>): SequenceEngine;
  /** The unsubscribe list (erase adds its hashed entries through it). */
  unsubscribes: UnsubscribeService;
  /** The account's frequency cap, kept equal with the SMS side's (its consumer starts with the service). */
  frequencyCap: FrequencyCapSetting;
  start(): Promise<void>;
  stop(): void;
}

/**
 * The sending features of svc-email in one place: campaigns, templates (full), Resend, the unsubscribe list, live
 * campaign sends. app.ts calls this once and mounts what it returns.
 */
export async function buildSendingFeatures({
  conn,
  outbox,
  logger,
  publicUrl,
  integrations,
  trackedLinks,
  config,
}: {
  conn: Connection;
  outbox: Outbox;
  logger: Logger;
  publicUrl: string;
  integrations: IntegrationCache;
  /** Our redirect links (links/), put in the emails when the operator counts clicks with them. */
  trackedLinks?: EmailTrackedLinks;
  config: SendingConfig;
}): Promise<SendingFeatures> {
  await Promise.all([
    campaignModel(conn).init(),
    emailTemplateModel(conn).init(),
    unsubscribeModel(conn).init(),
    SequenceEngine.init(conn),
  ]);
  await moveLegacyRecoveryUrls(conn, logger);

  const links: UnsubscribeLinkSettings = {
    publicUrl,
    secret: config.unsubscribeSecret,
    mailto: config.unsubscribeMailto,
  };
  const campaigns = new CampaignsService(conn);
  const templates = new TemplatesService(conn, campaigns);
  const unsubscribes = new UnsubscribeService(conn, outbox);
  const provider = new ResendProvider(conn, config.resend);
  const recoveryUrls = new RecoveryUrls(
    config.recoveryUrlFallback,
    async (id) => (await integrations.get()).byId.get(id)?.checkout_fallback_url ?? null,
    publicUrl,
  );
  const incentives = await buildIncentives(conn, logger);
  const frequencyCap = new FrequencyCapSetting(conn, outbox);
  const timing = new TimingSettingsService(conn, frequencyCap);
  const ledger = new AttributionLedger(conn);
  const resend = new ResendService(provider, templates, unsubscribes, recoveryUrls, links, config.liveSending, trackedLinks);

  let engine: SequenceEngine | null = null;
  if (config.liveSending && !/^https:/i.test(publicUrl))
    logger.warn(
      { publicUrl },
      'live sending with a non-https PUBLIC_URL: mail clients may ignore the one-click unsubscribe link',
    );

  return {
    unsubscribes,
    frequencyCap,
    routers: [
      timingSettingsRouter(timing),
      campaignsRouter(campaigns),
      templatesRouter(templates, resend),
      resendRouter(resend, provider, conn),
      resendEventsRouter(
        new ResendEventsService({
          logs: emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>,
          unsubscribes,
          replays: new ReplayGuard(conn, 'resend_event_deliveries'),
          secret: () => provider.webhookSecret(),
          logger,
          clicked: (messageId, at) => contactReach(contactModel(conn).collection as unknown as Collection<ContactDoc>).clicked(emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>, messageId, at),
        }),
      ),
      unsubscribePublicRouter(unsubscribes, {
        secret: config.unsubscribeSecret,
        publicUrl,
        publicPerMinute: config.unsubscribePerMinute,
        conn,
      }),
      unsubscribeAdminRouter(unsubscribes),
      // Loopback http shops only outside production: the tests' fake Shopify and WooCommerce.
      incentivesRouter('/api/email', 'email', { ...incentives, allowHttpShops: process.env.NODE_ENV !== 'production' }),
    ],
    engine(logs, markUnsubscribed) {
      engine = new SequenceEngine({
        conn,
        campaigns,
        templates,
        unsubscribes,
        provider,
        recoveryUrls,
        logs,
        links,
        incentives,
        integrations,
        trackedLinks,
        markUnsubscribed,
        liveSending: config.liveSending,
        hourMs: config.delayHourMs,
        timing: emailTiming({
          contacts: contactModel(conn).collection as unknown as Collection<ContactDoc>,
          integrations,
          settings: timing,
          readTouches: (keys, since) => ledger.touchesSince(keys, since),
        }),
        concurrency: config.sendConcurrency,
        scanMs: config.dueScanMs,
        logger,
      });
      return engine;
    },
    async start() {
      await engine?.start();
    },
    stop() {
      engine?.stop();
    },
  };
}
