import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { EmailLog, Paged } from '@act/contracts/src/email-api';
import { EMAIL_LOG_PROJECTION, emailLogModel, toEmailLog, type EmailLogDoc } from './model';
import { readList, type ListOptions, type ListQueryParsed } from '../lib/list';

export const EMAIL_LOG_LIST_OPTIONS: ListOptions = {
  sortable: ['id', 'contact_id', 'email', 'timestamp', 'message', 'status'],
  defaultSort: { field: 'timestamp', dir: -1 },
};

export type NewEmailLog = Omit<EmailLogDoc, 'id' | 'timestamp'> & { timestamp?: Date };

export class EmailLogsService {
  readonly coll: Collection<EmailLogDoc>;

  constructor(
    conn: Connection,
    private readonly allocateId: () => Promise<number>,
  ) {
    this.coll = emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>;
  }

  /** One insertMany for a batch of reminders. */
  async addMany(entries: NewEmailLog[]): Promise<void> {
    if (entries.length === 0) return;
    const now = new Date();
    const docs: EmailLogDoc[] = [];
    for (const e of entries) docs.push({ ...e, id: await this.allocateId(), timestamp: e.timestamp ?? now });
    await this.coll.insertMany(docs, { ordered: false });
  }

  list(q: ListQueryParsed): Promise<EmailLog[] | Paged<EmailLog>> {
    return readList(this.coll, {}, EMAIL_LOG_PROJECTION, q, EMAIL_LOG_LIST_OPTIONS, toEmailLog);
  }

  async clearAll(): Promise<number> {
    return (await this.coll.deleteMany({})).deletedCount;
  }
}
