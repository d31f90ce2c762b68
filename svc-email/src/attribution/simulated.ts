import Router from '@koa/router';
import type { Collection } from 'mongodb';
import type { Contact, Paged } from '@act/contracts/src/email-api';
import type { EmailLogDoc } from '../email-logs/model';

/**
 * Which of these contacts' reminders were only logged (`would_send`, live sending off) and never really sent: one
 * read of their reminder logs, served by the logs' `contact_ref` index.
 */
export async function simulatedRefs(logs: Collection<EmailLogDoc>, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await logs.find({ contact_ref: { $in: ids }, status: { $in: ['would_send', 'sent'] } }, { projection: { _id: 0, contact_ref: 1, status: 1 } }).toArray();
  const logged = new Set<number>();
  const sent = new Set<number>();
  for (const r of rows) (r.status === 'sent' ? sent : logged).add(r.contact_ref);
  return new Set([...logged].filter((id) => !sent.has(id)));
}

const isContact = (v: unknown): v is Contact => typeof v === 'object' && v !== null && typeof (v as Contact).id === 'number' && typeof (v as Contact).status === 'string';

/**
 * Adds `simulated` to the contacts the contacts list answers, after it answered: a contact shown "Sent"
 * whose email nobody received reads "Sent (simulated)" on every screen (its `test` flag is stored). Mounted before the contacts router; it only adds fields to what that router wrote.
 */
export function simulatedContactsRouter(logs: Collection<EmailLogDoc>): Router {
  const router = new Router();
  router.get('/api/contacts', async (ctx, next) => {
    await next();
    if (ctx.status !== 200) return;
    const body = ctx.body as Contact[] | Paged<Contact> | Contact | undefined;
    const rows = Array.isArray(body) ? body : body && 'items' in body && Array.isArray(body.items) ? body.items : isContact(body) ? [body] : [];
    const contacts = rows.filter(isContact);
    const simulated = await simulatedRefs(logs, contacts.map((c) => c.id));
    for (const c of contacts) c.simulated = simulated.has(c.id);
  });
  return router;
}
