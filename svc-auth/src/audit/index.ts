export { auditRouter } from './routes';
export { createAuditLog, type AuditLog } from './service';
export { auditCollection, ensureAuditIndexes } from './model';
export { startAuditConsumer } from './consumer';
