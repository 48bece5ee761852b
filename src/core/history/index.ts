// History of sent requests: redacted before writing, bounded, bodies stored once. Compare: two
// exchanges as pretty JSON documents for a diff editor.
export { HistoryStore, type HistoryRecord, type StoredExchange } from './store';
export { directoryHistoryFiles } from './directoryFiles';
export { type HistoryEntry } from './model';
export { compareDocument } from './compare';
export { entriesOfRequest } from './requestNow';
