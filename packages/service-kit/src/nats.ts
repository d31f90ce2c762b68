import { connect, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type NatsConnection } from 'nats';
import type { Logger } from './logger';

export interface Bus {
  /** Resolves once NATS is reachable; never rejects (reconnects forever). */
  ready(): Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }>;
  isConnected(): boolean;
  streamName: string;
  subject(name: string): string;
  close(): Promise<void>;
}

/**
 * Connects in the background so a service starts (and takes webhooks into its outbox) while NATS is away.
 * The stream is declared on each connect, idempotently, so any service may come up first.
 */
export function createBus({ url, prefix, name, logger }: { url: string; prefix: string; name: string; logger: Logger }): Bus {
  const streamName = `${prefix}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_');
  const subject = (s: string) => `${prefix}${s}`;
  let connection: NatsConnection | null = null;
  let online = false;
  let closed = false;
  const readyPromise = (async () => {
    for (let attempt = 0; !closed; attempt++) {
      try {
        // noAsyncTraces: every JetStream publish is a request, and with traces on each one captured two stack traces
        // up front (an Error for context, one for its timer): the largest NATS cost of the outbox relay in profiles.
        const nc = await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true, noAsyncTraces: true });
        const jsm = await nc.jetstreamManager();
        const config = { name: streamName, subjects: [subject('funnel.>'), subject('unsubscribe.>')], retention: RetentionPolicy.Limits, storage: StorageType.File, duplicate_window: 2 * 60 * 1_000_000_000 };
        try {
          await jsm.streams.info(streamName);
        } catch {
          await jsm.streams.add(config);
        }
        connection = nc;
        online = true;
        logger.info({ url, stream: streamName }, 'nats connected');
        (async () => {
          for await (const s of nc.status()) {
            if (s.type === 'disconnect') online = false;
            if (s.type === 'reconnect') online = true;
            logger.info({ type: s.type }, 'nats status');
          }
        })().catch(() => undefined);
        return { nc, js: nc.jetstream(), jsm };
      } catch (err) {
        if (attempt % 10 === 0) logger.warn({ err: (err as Error).message }, 'nats not reachable yet, retrying');
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
    throw new Error('bus closed');
  })();
  readyPromise.catch(() => undefined);
  return {
    ready: () => readyPromise,
    isConnected: () => online && !!connection && !connection.isClosed(),
    streamName,
    subject,
    async close() {
      closed = true;
      if (connection) await connection.drain().catch(() => connection?.close());
    },
  };
}
