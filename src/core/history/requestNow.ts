// Where a History entry's request is in its file now. The file may have been edited since the send, so
// the place the entry recorded (the request's index) is never obeyed: a re-run or a comparison that
// trusted it would send whichever request took that place. A request is the same one when it has the
// same name (`# @name`, else the `###` title) and method; an unnamed one when its method, URL
// (continuation lines included) and body are written the same way. Of several written alike ("twins"), the one
// that keeps its order among them (recorded at the send: the k-th stays the k-th). What the entry recorded went through the
// Redactor: a `***` there stands for whatever the file holds in that place. Anything else is "not found".
import { REDACTED } from '../secrets/redact';
import { parseHttpFile, writtenRequestLine, type HttpFile, type HttpRequestNode } from '../httpfile';
import type { HistoryEntry } from './model';

/** What an entry recorded of the request it was sent from: its place then, its name, its block as written. */
export type RecordedRequest = Pick<HistoryEntry, 'origin' | 'name' | 'source'>;


/**
 * `recorded` (redacted) as a test of the text as written now: each `***` stands for what the Redactor hid
 * there, one character or more, none of them one `stop` matches (a value in a request line has no blank
 * and no `&`; a name may have any). Masks in a row (a run of asterisks, as a masked placeholder is
 * written) are one gap of at least as many characters. The text is read once, left to right, each piece
 * found with indexOf at its first place: never a pattern built from the text, whose gaps side by side
 * would try every way to share the characters among them.
 */
function matcher(recorded: string, stop?: RegExp): (now: string) => boolean {
  if (!recorded.includes(REDACTED)) return (now) => now === recorded;
  const { pieces, least } = piecesAndGaps(recorded.split(REDACTED));
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const gapOk = (gap: string, at: number): boolean => gap.length >= least[at]! && !stop?.test(gap);
  return (now) => {
    if (!now.startsWith(first) || !now.endsWith(last)) return false;
    const end = now.length - last.length;
    let from = first.length;
    for (let i = 1; i < pieces.length - 1; i++) {
      const piece = pieces[i]!;
      // The first place is the one to take: a later one leaves no more to the gaps after it than this does.
      const at = now.indexOf(piece, from + least[i - 1]!);
      if (at < 0 || at + piece.length > end || !gapOk(now.slice(from, at), i - 1)) return false;
      from = at + piece.length;
    }
    return from <= end && gapOk(now.slice(from, end), pieces.length - 2);
  };
}

/** The text between the masks, with the masks in a row (empty text between them) joined: least[i] the masks between pieces[i] and pieces[i + 1]. */
function piecesAndGaps(split: readonly string[]): { pieces: string[]; least: number[] } {
  const pieces = [split[0]!];
  const least: number[] = [];
  let masks = 0;
  for (let i = 1; i < split.length; i++) {
    masks++;
    if (split[i] === '' && i < split.length - 1) continue;
    pieces.push(split[i]!);
    least.push(masks);
    masks = 0;
  }
  return { pieces, least };
}

/** The index of the recorded request in `file` as it is now; undefined when no request is that one (or none was recorded). */
export function requestIndexNow(file: HttpFile, recorded: RecordedRequest): number | undefined {
  const same = sameRequest(recorded);
  if (!same || !recorded.origin) return undefined;
  const alike = file.requests.filter(same);
  // Requests written alike are told apart by their order alone: the k-th stays the k-th, wherever it moved.
  const twin = recorded.origin.twin;
  if (twin !== undefined) return alike[twin]?.index;
  // Recorded without its order: only a request with no twin can be it (a place says nothing once moved).
  return alike.length === 1 ? alike[0]!.index : undefined;
}

/**
 * Which of the requests written alike in `file` (the file a send was made from) the recorded one is: 0
 * for the first. Undefined when the request at the recorded place is not one of them.
 */
export function twinOrder(file: HttpFile, recorded: RecordedRequest): number | undefined {
  const same = sameRequest(recorded);
  if (!same || !recorded.origin) return undefined;
  const at = file.requests.filter(same).findIndex((r) => r.index === recorded.origin!.index);
  return at < 0 ? undefined : at;
}

/**
 * The entries sent from the request at `index` of `file` (the text of the file at `uri` as it is now), by
 * the rule above, never by their recorded place alone: a request's earlier responses, its stored
 * responses to compare with. Order kept.
 */
export function entriesOfRequest<E extends RecordedRequest>(entries: readonly E[], uri: string, file: HttpFile, index: number): E[] {
  return entries.filter((entry) => entry.origin?.file === uri && requestIndexNow(file, entry) === index);
}

function sameRequest(recorded: RecordedRequest): ((request: HttpRequestNode) => boolean) | undefined {
  const written = recorded.source === undefined ? undefined : parseHttpFile(recorded.source).requests[0];
  if (recorded.name !== undefined) {
    const named = matcher(recorded.name);
    // Renamed is another request; so is one that kept the name but not the method (a GET become a DELETE).
    return (request) => request.name !== undefined && named(request.name) && (!written || written.requestLine.method === request.requestLine.method);
  }
  if (!written || written.name !== undefined) return undefined;
  const line = matcher(writtenRequestLine(written), /[\s&]/);
  // Unnamed, the body as written is part of what the request is: two POSTs to one URL differ by it. A
  // masked value in a body stands for text within one value (no quote, `&` or line break: never a
  // field or an item more, and a match that cannot run away on a long body).
  const body = matcher(bodyWritten(written), /["&\r\n]/);
  return (request) => request.name === undefined && line(writtenRequestLine(request)) && body(bodyWritten(request));
}

/** A request's body as written (its text with line breaks as LF, or the file it includes), without the blanks around it. */
function bodyWritten(request: HttpRequestNode): string {
  const body = request.body;
  if (!body) return '';
  return body.kind === 'inline' ? body.text.replace(/\r\n?/g, '\n').trim() : `${body.substituteVariables ? '<@' : '<'} ${body.path}`;
}
