import { connect, createInbox, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type MsgHdrs, type NatsConnection } from 'nats';
import type { Logger } from './logger';
import { envInt } from './config';

/** Publishes one message into JetStream; resolves once the stream has stored it (or had it already: same msgID). */
export type AckedPublish = (subject: string, data: string, msgID: string, headers: MsgHdrs) => Promise<void>;

/**
 * JetStream publishes whose acknowledgements all come back on one inbox subscription, what other NATS clients call
 * asynchronous publishing. nats.js's js.publish makes every message a request of its own: a timer, a mux entry and,
 * when the ack arrives, a NatsError (with its stack trace) built and thrown away; together the relay's largest NATS
 * cost in profiles. Unacknowledged publishes fail after `timeoutMs`, so the outbox keeps their rows for a retry.
 */
export function createAckedPublisher(nc: NatsConnection, timeoutMs = 5_000): AckedPublish {
  const prefix = `${createInbox()}.`;
  const pending = new Map<string, { resolve: () => void; reject: (err: Error) => void; at: number }>();
  let next = 0;
  nc.subscribe(`${prefix}*`, {
    callback: (err, msg) => {
      if (err) return;
      const token = msg.subject.slice(prefix.length);
      const waiter = pending.get(token);
      if (!waiter) return;
      pending.delete(token);
      // No stream takes the subject: the server answers an empty 503 ("no responders").
      if (msg.data.length === 0 && msg.headers?.code === 503) return waiter.reject(new Error(`no JetStream stream for ${msg.subject}`));
      try {
        const ack = JSON.parse(msg.string()) as { stream?: string; error?: { description?: string } };
        if (ack.error || !ack.stream) return waiter.reject(new Error(`JetStream refused the message: ${ack.error?.description ?? 'no stream'}`));
        waiter.resolve();
      } catch {
        waiter.reject(new Error('unreadable JetStream acknowledgement'));
      }
    },
  });
  const expire = setInterval(() => {
    const before = Date.now() - timeoutMs;
    for (const [token, waiter] of pending) {
      if (waiter.at > before) break; // in order of publication
      pending.delete(token);
      waiter.reject(new Error(`JetStream did not acknowledge within ${timeoutMs} ms`));
    }
  }, Math.min(1_000, timeoutMs)).unref();
  // A closed connection answers nothing more: what still waits fails now, and the timer goes with the connection.
  void nc.closed().then(() => {
    clearInterval(expire);
    for (const waiter of pending.values()) waiter.reject(new Error('NATS connection closed before JetStream acknowledged'));
    pending.clear();
  });
  return (subject, data, msgID, headers) =>
    new Promise<void>((resolve, reject) => {
      const token = (next++).toString(36);
      pending.set(token, { resolve, reject, at: Date.now() });
      headers.set('Nats-Msg-Id', msgID);
      try {
        nc.publish(subject, data, { reply: prefix + token, headers });
      } catch (err) {
        pending.delete(token);
        reject(err as Error);
      }
    });
}

export interface Bus {
  /** Resolves once NATS is reachable; never rejects (reconnects forever). */
  ready(): Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager; publish: AckedPublish }>;
  isConnected(): boolean;
  streamName: string;
  subject(name: string): string;
  close(): Promise<void>;
}

/** Subject families of the one stream (without the prefix); events.ts names the subjects in them. */
export const STREAM_SUBJECTS = ['funnel.>', 'unsubscribe.>', 'send.>', 'audit.>', 'privacy.>'] as const;

/**
 * Connects in the background so a service starts (and takes webhooks into its outbox) while NATS is away.
 * The stream is declared on each connect, idempotently, so any service may come up first.
 */
export function createBus({ url, prefix, name, logger }: { url: string; prefix: string; name: string; logger: Logger }): Bus {
  const streamName = `${prefix}FUNNEL`.replace(/[^A-Za-z0-9_-]/g, '_');
  const subject = (s: string) => `${prefix}${s}`;
  // NATS_URL may name every server of a cluster, comma-separated: the client fails over between them. nats.js
  // takes a list; given the comma-separated string, it reads the whole as one address and reaches the last server only.
  const servers = url.split(',').map((s) => s.trim()).filter(Boolean);
  let connection: NatsConnection | null = null;
  let online = false;
  let closed = false;
  const readyPromise = (async () => {
    for (let attempt = 0; !closed; attempt++) {
      try {
        // noAsyncTraces: every JetStream publish is a request, and with traces on each one captured two stack traces
        // up front (an Error for context, one for its timer): the largest NATS cost of the outbox relay in profiles.
        const nc = await connect({ servers, name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true, noAsyncTraces: true });
        const jsm = await nc.jetstreamManager();
        const subjects = STREAM_SUBJECTS.map(subject);
        // NATS_STREAM_REPLICAS: copies of the stream in a JetStream cluster (3 with infra/k8s/nats/values.yaml); a
        // single server takes only 1. Read when the stream is created (an existing stream keeps its own).
        const config = {
          name: streamName,
          subjects,
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          duplicate_window: 2 * 60 * 1_000_000_000,
          num_replicas: envInt('NATS_STREAM_REPLICAS', 1),
        };
        let existing: string[] | null = null;
        try {
          existing = (await jsm.streams.info(streamName)).config.subjects ?? [];
        } catch {
          await jsm.streams.add(config);
        }
        // A stream made by an older release lacks the subjects added since: widen it, keeping what it has.
        if (existing && subjects.some((s) => !existing!.includes(s))) {
          const info = await jsm.streams.info(streamName);
          await jsm.streams.update(streamName, { ...info.config, subjects: [...new Set([...existing, ...subjects])] });
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
        return { nc, js: nc.jetstream(), jsm, publish: createAckedPublisher(nc) };
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
