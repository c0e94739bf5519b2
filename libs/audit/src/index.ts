export { jsonbText } from './jsonb';
export { eventHash, type ExportedEvent } from './chain';
export { auditMatch } from './audit';
export { AUDIT_CHECKS, exportOf, parsePin, PIN_PATTERN, EXPORT_FORMAT, type AuditCheck, type AuditReport, type ChainPin, type ExportedMatch } from './report';
