import type { Connection } from 'mongoose';
import { consume, type Bus, type Logger } from '@act/service-kit';
import { PRIVACY_COMPLETED, type PrivacyCompleted } from '@act/contracts/src/privacy';
import type { PrivacyRequests } from './service';

/** The services' answers to privacy requests. */
export function startPrivacyConsumer({ conn, bus, logger, privacy }: { conn: Connection; bus: Bus; logger: Logger; privacy: PrivacyRequests }) {
  return consume({
    conn,
    bus,
    durable: 'svc-auth-privacy',
    subjects: [PRIVACY_COMPLETED],
    logger,
    concurrency: 4,
    handler: ({ payload }) => privacy.complete(payload as unknown as PrivacyCompleted),
  });
}
