export { jsonbText } from './jsonb';
export { eventHash, type ExportedEvent } from './chain';
export { AUDIT_CHECKS, auditMatch, exportOf, parsePin, PIN_PATTERN, EXPORT_FORMAT, type AuditCheck, type AuditReport, type ChainPin, type ExportedMatch } from './audit';
