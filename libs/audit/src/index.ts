export { jsonbText } from './jsonb';
export { eventHash, type ExportedEvent } from './chain';
export { auditMatch, exportOf, EXPORT_FORMAT, type AuditCheck, type AuditReport, type ExportedMatch } from './audit';
