export { auditRouter } from './routes';
export { createAuditLog, type AuditLog } from './service';
export { auditCollection, backfillMentions, ensureAuditIndexes } from './model';
export { mentionKeys, personKeys } from './mentions';
export { startAuditConsumer } from './consumer';
