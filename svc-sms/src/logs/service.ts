import type { Connection } from 'mongoose';
import type { SmsLog } from '@act/contracts/src/sms-api';
import { logModel, type LogDoc } from './model';

export class LogService {
  private readonly Log;
  constructor(
    conn: Connection,
    private readonly deps: { listLimit: number },
  ) {
    this.Log = logModel(conn);
  }

  async list(): Promise<SmsLog[]> {
    const docs = await this.Log.find({}).sort({ timestamp: -1, id: -1 }).limit(this.deps.listLimit).lean<LogDoc[]>();
    return docs.map(toApiLog);
  }
}

export function toApiLog(d: LogDoc): SmsLog {
  return {
    id: d.id,
    phone: d.phone,
    contact_id: d.contact_id ?? null,
    integration_id: d.integration_id ?? null,
    template_id: d.template_id ?? null,
    message: d.message,
    sequence_order: d.sequence_order ?? null,
    status: d.status,
    message_sid: d.message_sid ?? null,
    timestamp: new Date(d.timestamp).toISOString(),
    error_message: d.error_message ?? null,
  };
}
