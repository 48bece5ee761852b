// Test helper: a Send recorded in History as the editor records it (sendView.historyEntryOf): the request's
// place then, its name, its block as written, and the file it was sent from (which twin it was).
import { requestBlockText } from '../../src/core/collections/requestBlocks';
import type { HistoryEntry, HistoryStore } from '../../src/core/history';
import { parseHttpFile } from '../../src/core/httpfile';

/** Records a send of the request at `index` of `text` (file `uri`), answered with `status`. */
export async function recordSend(store: HistoryStore, uri: string, text: string, index: number, status: number): Promise<HistoryEntry> {
  const file = parseHttpFile(text);
  const node = file.requests[index]!;
  return store.record({
    request: { method: node.requestLine.method, url: `http://127.0.0.1:1/${index}`, headers: {} },
    ...(node.name !== undefined ? { name: node.name } : {}),
    origin: { file: uri, index }, source: requestBlockText(text, index), sentFrom: file,
    response: { status, statusText: '', headers: {}, bodyText: '', timing: { startedAt: 0, firstByteMs: 1, totalMs: 1 }, sizeBytes: 0 },
  });
}

/** The statuses of entries' responses, in order. */
export const statuses = (entries: readonly HistoryEntry[]): number[] => entries.map((e) => e.response!.status);
