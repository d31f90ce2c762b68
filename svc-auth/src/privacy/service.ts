import type { Connection } from 'mongoose';
import type { Document } from 'mongodb';
import { mentionKeys, personKeys } from '../audit/mentions';
import { inTransaction, isDuplicateKeyError, nextId, NotFoundError, phoneDigitsPattern, privacyHash, scrubText, type Logger, type Outbox } from '@act/service-kit';
import {
  PRIVACY_REQUESTED,
  type PrivacyKind,
  PRIVACY_SERVICES,
  type PrivacyCompleted,
  type PrivacyExport,
  type PrivacyRequestView,
  type PrivacyService,
  type PrivacyServiceResult,
} from '@act/contracts/src/privacy';

/** Days an export's data is kept here for download before MongoDB removes it (it is personal data too). */
export const EXPORT_KEEP_DAYS = 7;

type RequestDoc = Omit<PrivacyRequestView, 'created_at' | 'status' | 'erased_ref'> & { created_at: Date; erased_ref?: string | null };
interface ExportDoc {
  request_id: number;
  service: PrivacyService;
  records: Record<string, unknown[]>;
  created_at: Date;
}

const pending = (): PrivacyServiceResult => ({ status: 'pending', finished_at: null, counts: {}, truncated: [], error: null });

export interface PrivacyRequests {
  init(): Promise<void>;
  create(input: { kind?: PrivacyKind; email: string | null; phone: string | null }, requestedBy: string): Promise<PrivacyRequestView>;
  list(): Promise<PrivacyRequestView[]>;
  get(id: number): Promise<PrivacyRequestView>;
  exportOf(id: number): Promise<PrivacyExport>;
  /** A service's answer, heard over NATS; heard twice, stored once. */
  complete(answer: PrivacyCompleted): Promise<void>;
}

/** The few characters of the person's hash the list shows once an erase is done. */
const refOf = (email: string | null, phone: string | null) => (email ? privacyHash('email', email) : null)?.slice(0, 12) ?? (phone ? privacyHash('phone', phone) : null)?.slice(0, 12) ?? null;

export function createPrivacyRequests(conn: Connection, outbox: Outbox, logger?: Logger): PrivacyRequests {
  const requests = conn.db!.collection<RequestDoc>('privacy_requests');
  const exports = conn.db!.collection<ExportDoc>('privacy_exports');
  const audit = conn.db!.collection('audit_log');
  const answered = (d: Pick<RequestDoc, 'services'>) => PRIVACY_SERVICES.every((s) => d.services[s]?.status !== 'pending');
  const view = ({ _id, created_at, ...d }: RequestDoc & { _id?: unknown }): PrivacyRequestView => {
    void _id;
    return {
      ...d,
      erased_ref: d.erased_ref ?? null,
      created_at: created_at.toISOString(),
      // An erase is done once svc-auth's own part is done too (finishErase sets erased_ref last).
      status: answered(d) && (d.kind !== 'erase' || d.erased_ref) ? 'done' : 'pending',
    };
  };
  const find = async (id: number) => {
    const doc = await requests.findOne({ id }, { projection: { _id: 0 } });
    if (!doc) throw new NotFoundError('Privacy request not found');
    return doc;
  };

  /**
   * Once both sides erased the person, what svc-auth holds of them goes too: the address and number on
   * every privacy request for them (this one included; a short hash stays to tell requests apart), the exports kept
   * for download, and their mentions in the audit log's recorded changes (replaced by the erased forms; the records
   * themselves stay: who did what, and that the erase was asked, remains). Idempotent: run again, it finds nothing.
   */
  async function finishErase(req: RequestDoc): Promise<void> {
    const { email, phone } = req;
    if (!email && !phone) return;
    const digits = phone ? phoneDigitsPattern(phone) : null;
    const or = [...(email ? [{ email }] : []), ...(digits ? [{ phone: { $regex: digits } }] : [])];
    const theirs = await requests.find({ $or: or }, { projection: { _id: 0, id: 1 } }).toArray();
    const ids = theirs.map((r) => r.id);
    await exports.deleteMany({ request_id: { $in: ids } });
    const person = { emails: email ? [email] : [], phones: phone ? [phone] : [] };
    const mentions = (text: string) =>
      (email !== null && text.toLowerCase().includes(email.toLowerCase())) || (digits !== null && new RegExp(digits).test(text));
    let scrubbed = 0;
    // By the index of hashed mentions each record carries (svc-auth/src/audit/mentions.ts), not a scan: the records
    // naming the person, plus any stored before the index existed and not yet given their keys.
    const keys = personKeys(email, phone);
    const candidates = audit.find(
      { $or: [{ mentions: { $in: keys } }, { mentions: { $exists: false } }] },
      { projection: { _id: 1, change: 1 } },
    );
    for await (const rec of candidates) {
      const text = JSON.stringify(rec.change ?? null);
      if (!mentions(text)) {
        await audit.updateOne({ _id: rec._id, mentions: { $exists: false } }, { $set: { mentions: mentionKeys(rec.change) } });
        continue;
      }
      const change = JSON.parse(scrubText(text, person)) as unknown;
      await audit.updateOne({ _id: rec._id }, { $set: { change, mentions: mentionKeys(change) } });
      scrubbed++;
    }
    // Last: while the request still names the person, a redelivered answer can finish what a crash left.
    await requests.updateMany({ id: { $in: ids } }, { $set: { email: null, phone: null, erased_ref: refOf(email, phone) } });
    logger?.info({ requestId: req.id, requests: ids.length, auditRecords: scrubbed }, 'privacy erase finished in svc-auth');
  }

  return {
    async init() {
      await requests.createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
      await exports.createIndex({ request_id: 1, service: 1 }, { unique: true, name: 'request_service' });
      await exports.createIndex({ created_at: 1 }, { expireAfterSeconds: EXPORT_KEEP_DAYS * 86_400, name: 'created_ttl' });
    },

    async create({ kind = 'export', email, phone }, requestedBy) {
      const doc: RequestDoc = {
        id: await nextId(conn, 'privacy_requests'),
        kind,
        email,
        phone,
        requested_by: requestedBy,
        created_at: new Date(),
        services: Object.fromEntries(PRIVACY_SERVICES.map((s) => [s, pending()])) as RequestDoc['services'],
      };
      // The request and its event land together (one transaction on a replica set). Durable over JetStream: a
      // service that is down now answers when it returns.
      await inTransaction(conn, async (tx) => {
        await requests.insertOne({ ...doc }, { session: tx.session });
        await outbox.add(PRIVACY_REQUESTED, { requestId: doc.id, kind: doc.kind, email, phone }, `privacy-request-${doc.id}`, tx);
      });
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
      if (request.kind !== 'export') throw new NotFoundError('This request is an erase: it has no export');
      // An export past its keeping time is gone for the reader at once, not when the TTL monitor's next pass (60 s
      // period) deletes it.
      const kept = new Date(Date.now() - EXPORT_KEEP_DAYS * 86_400_000);
      const rows = await exports.find({ request_id: id, created_at: { $gte: kept } }, { projection: { _id: 0 } }).toArray();
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
      const doc = await requests.findOne({ id: requestId }, { projection: { _id: 0 } });
      // Every time the last answer is heard (a redelivery too), so a crash half-way through is finished by it.
      if (doc?.kind === 'erase' && answered(doc)) await finishErase(doc);
    },
  };
}
