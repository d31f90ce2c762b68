// What the services' erase tests share: asking a service for an export or an erase the way svc-auth does (over
// NATS), and reading a service's whole database as text to look for what must be gone.
import { randomUUID } from 'node:crypto';
import type { MongoClient } from 'mongodb';
import type { NatsConnection } from 'nats';
import type { PrivacyCompleted } from '@act/contracts/src/privacy';

export interface PrivacySubject {
  email: string | null;
  phone: string | null;
}

/**
 * Publishes `privacy.requested` under the service's subject prefix as svc-auth's outbox does, and hears the service's
 * `privacy.completed` answers; `ask` resolves with the answer to its request.
 */
export function privacyRequester(nc: NatsConnection, prefix: string) {
  const heard: PrivacyCompleted[] = [];
  const answers = nc.subscribe(`${prefix}privacy.completed`);
  void (async () => {
    for await (const m of answers) heard.push(m.json<PrivacyCompleted>());
  })();
  return {
    async ask(requestId: number, kind: 'export' | 'erase', who: PrivacySubject, timeoutMs = 30_000) {
      await nc.jetstream().publish(
        `${prefix}privacy.requested`,
        JSON.stringify({
          eventId: randomUUID(),
          source: 'svc-auth',
          occurredAt: new Date().toISOString(),
          requestId,
          kind,
          email: who.email?.toLowerCase() ?? null,
          phone: who.phone,
        }),
      );
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = heard.find((a) => a.requestId === requestId);
        if (answer) return answer;
        if (Date.now() > deadline) throw new Error(`no answer to privacy request ${requestId} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => answers.unsubscribe(),
  };
}

/** Every document of every collection of one database, as text: what an erase test searches for the person. */
export async function databaseAsText(client: MongoClient, db: string): Promise<string> {
  const out: string[] = [];
  for (const { name } of await client.db(db).listCollections().toArray())
    out.push(name + JSON.stringify(await client.db(db).collection(name).find({}).toArray()));
  return out.join('\n');
}
