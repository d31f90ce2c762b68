import type Koa from 'koa';
import type Router from '@koa/router';
import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import { ReplayGuard, type Logger, type Outbox } from '@act/service-kit';
import { emailLogModel, type EmailLogDoc } from '../email-logs/model';
import { ResendEventsService } from '../resend-events/service';
import { resendEventsRouter } from '../resend-events/routes';
import type { EmailLogsService } from '../email-logs/service';
import type { IntegrationCache } from '../integrations/cache';
import type { ReminderSender } from '../reminders/sender';
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
import { RecoveryUrls, recoveryUrlModel } from './recovery-urls';
import { SequenceEngine } from './engine';
import { CampaignReminderSender } from './sender';

export { loadSendingConfig, type SendingConfig } from './config';

export interface SendingFeatures {
  routers: Router[];
  /** The ReminderSender for part 1's reminder service. */
  sender(logs: EmailLogsService, onUnsubscribed?: (contactIds: number[]) => Promise<void>): ReminderSender;
  /** The unsubscribe list (erase adds its hashed entries through it). */
  unsubscribes: UnsubscribeService;
  start(): Promise<void>;
  stop(): void;
}

/**
 * Part 2 of svc-email in one place: campaigns, templates (full), Resend, the unsubscribe list, live campaign
 * sends. app.ts calls this once and mounts what it returns.
 */
export async function buildSendingFeatures({
  conn,
  outbox,
  logger,
  app,
  publicUrl,
  integrations,
  config,
}: {
  conn: Connection;
  outbox: Outbox;
  logger: Logger;
  app: Koa;
  publicUrl: string;
  integrations: IntegrationCache;
  config: SendingConfig;
}): Promise<SendingFeatures> {
  await Promise.all([
    campaignModel(conn).init(),
    emailTemplateModel(conn).init(),
    unsubscribeModel(conn).init(),
    recoveryUrlModel(conn).init(),
    SequenceEngine.init(conn),
  ]);

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
    conn,
    config.recoveryUrlFallback,
    async (id) => (await integrations.get()).byId.get(id)?.checkout_fallback_url ?? null,
    publicUrl,
  );
  const resend = new ResendService(provider, templates, unsubscribes, recoveryUrls, links, config.liveSending);
  app.use(recoveryUrls.middleware(logger));

  let engine: SequenceEngine | null = null;
  if (config.liveSending && !/^https:/i.test(publicUrl))
    logger.warn(
      { publicUrl },
      'live sending with a non-https PUBLIC_URL: mail clients may ignore the one-click unsubscribe link',
    );

  return {
    unsubscribes,
    routers: [
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
        }),
      ),
      unsubscribePublicRouter(unsubscribes, {
        secret: config.unsubscribeSecret,
        publicUrl,
        publicPerMinute: config.unsubscribePerMinute,
        conn,
      }),
      unsubscribeAdminRouter(unsubscribes),
    ],
    sender(logs, onUnsubscribed) {
      engine = new SequenceEngine({
        conn,
        campaigns,
        templates,
        unsubscribes,
        provider,
        recoveryUrls,
        logs,
        links,
        hourMs: config.delayHourMs,
        concurrency: config.sendConcurrency,
        scanMs: config.sequenceScanMs,
        logger,
      });
      return new CampaignReminderSender({
        logs,
        unsubscribes,
        integrations,
        campaigns,
        templates,
        engine,
        liveSending: config.liveSending,
        logger,
        onUnsubscribed,
      });
    },
    async start() {
      // EMAIL_LIVE_SENDING is also the kill switch: off, sequences already running wait where they are.
      if (config.liveSending) engine?.start();
    },
    stop() {
      engine?.stop();
    },
  };
}
