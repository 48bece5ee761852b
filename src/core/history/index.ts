// History of sent requests: redacted before writing, bounded, bodies stored once. Compare: two
// exchanges as pretty JSON documents for a diff editor.
export { HistoryStore, DEFAULT_HISTORY_LIMITS, type HistoryFiles, type HistoryLimits, type HistoryRecord, type StoredExchange } from './store';
export { directoryHistoryFiles, memoryHistoryFiles } from './directoryFiles';
export { HistoryEntrySchema, WALK_VERDICTS, type HistoryEntry, type WalkVerdictKind } from './model';
export { compareDocument, isVolatileHeader, isVolatileValue, VOLATILE_MARK, type CompareSide } from './compare';
