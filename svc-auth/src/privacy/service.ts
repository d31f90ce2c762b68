import type { Connection } from 'mongoose';
import type { Document } from 'mongodb';
import { isDuplicateKeyError, nextId, NotFoundError, type Outbox } from '@act/service-kit';
import {
  PRIVACY_REQUESTED,
  PRIVACY_SERVICES,
  type PrivacyCompleted,
  type PrivacyExport,
  type PrivacyRequestView,
  type PrivacyService,
  type PrivacyServiceResult,
} from '@act/contracts/src/privacy';

/** Days an export's data is kept here for download before MongoDB removes it (it is personal data too). */
export const EXPORT_KEEP_DAYS = 7;

type RequestDoc = Omit<PrivacyRequestView, 'created_at' | 'status'> & { created_at: Date };
interface ExportDoc {
  request_id: number;
  service: PrivacyService;
  records: Record<string, unknown[]>;
  created_at: Date;
}

const pending = (): PrivacyServiceResult => ({ status: 'pending', finished_at: null, counts: {}, truncated: [], error: null });

export interface PrivacyRequests {
  init(): Promise<void>;
  create(input: { email: string | null; phone: string | null }, requestedBy: string): Promise<PrivacyRequestView>;
  list(): Promise<PrivacyRequestView[]>;
  get(id: number): Promise<PrivacyRequestView>;
  exportOf(id: number): Promise<PrivacyExport>;
  /** A service's answer, heard over NATS; heard twice, stored once. */
  complete(answer: PrivacyCompleted): Promise<void>;
}

export function createPrivacyRequests(conn: Connection, outbox: Outbox): PrivacyRequests {
  const requests = conn.db!.collection<RequestDoc>('privacy_requests');
  const exports = conn.db!.collection<ExportDoc>('privacy_exports');
  const view = ({ _id, created_at, ...d }: RequestDoc & { _id?: unknown }): PrivacyRequestView => {
    void _id;
    return {
      ...d,
      created_at: created_at.toISOString(),
      status: PRIVACY_SERVICES.every((s) => d.services[s]?.status !== 'pending') ? 'done' : 'pending',
    };
  };
  const find = async (id: number) => {
    const doc = await requests.findOne({ id }, { projection: { _id: 0 } });
    if (!doc) throw new NotFoundError('Privacy request not found');
    return doc;
  };

  return {
    async init() {
      await requests.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
      await exports.createIndex({ request_id: 1, service: 1 }, { unique: true, name: 'request_service' });
      await exports.createIndex({ created_at: 1 }, { expireAfterSeconds: EXPORT_KEEP_DAYS * 86_400, name: 'created_ttl' });
    },

    async create({ email, phone }, requestedBy) {
      const doc: RequestDoc = {
        id: await nextId(conn, 'privacy_requests'),
        kind: 'export',
        email,
        phone,
        requested_by: requestedBy,
        created_at: new Date(),
        services: Object.fromEntries(PRIVACY_SERVICES.map((s) => [s, pending()])) as RequestDoc['services'],
      };
      await requests.insertOne({ ...doc });
      // Durable over JetStream: a service that is down now answers when it returns.
      await outbox.add(PRIVACY_REQUESTED, { requestId: doc.id, kind: doc.kind, email, phone }, `privacy-request-${doc.id}`);
      return view(doc);
    },

    async list() {
      const docs = await requests.find({}, { projection: { _id: 0 } }).sort({ id: -1 }).limit(200).toArray();
      return docs.map(view);
    },

    async get(id) {
      return view(await find(id));
    },

    async exportOf(id) {
      const request = view(await find(id));
      const rows = await exports.find({ request_id: id }, { projection: { _id: 0 } }).toArray();
      const data = Object.fromEntries(PRIVACY_SERVICES.map((s) => [s, rows.find((r) => r.service === s)?.records ?? {}])) as PrivacyExport['data'];
      return { request, data };
    },

    async complete({ requestId, service, result, records }) {
      if (!PRIVACY_SERVICES.includes(service)) return;
      try {
        await exports.insertOne({ request_id: requestId, service, records: records as Document as ExportDoc['records'], created_at: new Date() });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      await requests.updateOne({ id: requestId }, { $set: { [`services.${service}`]: result } });
    },
  };
}
