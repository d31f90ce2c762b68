import type { Connection } from 'mongoose';
import type { Collection } from 'mongodb';
import type { EmailLog, Paged } from '@act/contracts/src/email-api';
import { EMAIL_LOG_PROJECTION, emailLogModel, toEmailLog, type EmailLogDoc } from './model';
import { readList, retainedFilter, type ListOptions, type ListQueryParsed } from '@act/service-kit';

export const EMAIL_LOG_LIST_OPTIONS: ListOptions = {
  sortable: ['id', 'contact_id', 'email', 'timestamp', 'message', 'status'],
  defaultSort: { field: 'timestamp', dir: -1 },
};

export type NewEmailLog = Omit<EmailLogDoc, 'id' | 'timestamp'> & {
  timestamp?: Date;
  /**
   * Makes the entry idempotent: it becomes the row's `_id`, and a second add with the same key is dropped. The
   * reminder of a contact uses one, so writing it again after a crash (see ReminderService) never logs it twice.
   */
  key?: string;
  /** Where a reminder sits in its campaign: not stored, handed to the observers (attribution's touches). */
  touch?: { integration_id: number | null; campaign_id: number | null; template_id: number | null; step: number | null; variant?: string | null; holdout?: boolean };
};

/** Told of every batch after it is written (rows already there included: observers are idempotent). */
export type EmailLogObserver = (entries: NewEmailLog[], at: Date) => Promise<void>;

export class EmailLogsService {
  readonly coll: Collection<EmailLogDoc>;
  private readonly observers: EmailLogObserver[] = [];

  constructor(
    conn: Connection,
    private readonly allocateId: () => Promise<number>,
  ) {
    this.coll = emailLogModel(conn).collection as unknown as Collection<EmailLogDoc>;
  }

  observe(fn: EmailLogObserver): void {
    this.observers.push(fn);
  }

  /** One insertMany for a batch of reminders; entries whose key is already logged are skipped. */
  async addMany(entries: NewEmailLog[]): Promise<void> {
    if (entries.length === 0) return;
    const now = new Date();
    const docs: EmailLogDoc[] = [];
    for (const { key, touch: _touch, ...e } of entries) {
      docs.push({
        ...(key === undefined ? {} : { _id: key }),
        ...e,
        id: await this.allocateId(),
        timestamp: e.timestamp ?? now,
      } as EmailLogDoc);
    }
    try {
      await this.coll.insertMany(docs, { ordered: false });
    } catch (err) {
      // Unordered: every other row is written; only rows already there (same key) may fail.
      const errors = [(err as { writeErrors?: { code?: number }[] | { code?: number } }).writeErrors ?? []].flat();
      if (errors.length === 0 || errors.some((e) => e.code !== 11000)) throw err;
    }
    for (const fn of this.observers) await fn(entries, now);
  }

  list(q: ListQueryParsed): Promise<EmailLog[] | Paged<EmailLog>> {
    // Rows past DATA_RETENTION_DAYS are left out though the TTL monitor may not have removed them yet.
    return readList(this.coll, retainedFilter('timestamp'), EMAIL_LOG_PROJECTION, q, EMAIL_LOG_LIST_OPTIONS, toEmailLog);
  }

  async clearAll(): Promise<number> {
    return (await this.coll.deleteMany({})).deletedCount;
  }
}
