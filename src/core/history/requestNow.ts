// Where a History entry's request is in its file now. The file may have been edited since the send, so
// the place the entry recorded (the request's index) is a hint, never obeyed on its own: a re-run or a
// comparison that trusted it would send whichever request took that place. A request is the same one
// when it has the same name (`# @name`, else the `###` title); an unnamed one when its method and URL
// are written the same way. Anything else is "not found", and the caller says so.
import { parseHttpFile, type HttpFile, type HttpRequestNode } from '../httpfile';
import type { HistoryEntry } from './model';

/** What an entry recorded of the request it was sent from: its place then, its name, its block as written. */
export type RecordedRequest = Pick<HistoryEntry, 'origin' | 'name' | 'source'>;

const lineOf = (request: HttpRequestNode): string => `${request.requestLine.method} ${request.requestLine.url}`;

/** The index of the recorded request in `file` as it is now; undefined when no request is that one (or none was recorded). */
export function requestIndexNow(file: HttpFile, recorded: RecordedRequest): number | undefined {
  const same = sameRequest(recorded);
  if (!same || !recorded.origin) return undefined;
  const place = recorded.origin.index;
  const atPlace = file.requests.find((r) => r.index === place);
  if (atPlace && same(atPlace)) return atPlace.index;
  const elsewhere = file.requests.filter(same);
  // Two unnamed requests written alike cannot be told apart once moved.
  return elsewhere.length === 1 || (recorded.name !== undefined && elsewhere.length > 0) ? elsewhere[0]!.index : undefined;
}

function sameRequest(recorded: RecordedRequest): ((request: HttpRequestNode) => boolean) | undefined {
  if (recorded.name !== undefined) return (request) => request.name === recorded.name;
  const written = recorded.source === undefined ? undefined : parseHttpFile(recorded.source).requests[0];
  if (!written || written.name !== undefined) return undefined;
  const line = lineOf(written);
  return (request) => request.name === undefined && lineOf(request) === line;
}
