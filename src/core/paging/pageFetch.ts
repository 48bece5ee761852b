// Fetching one page for the walker, two ways:
// - buffered: the whole body is read, decoded and JSON-parsed (any sink, any style);
// - streamed: when the sink takes NDJSON bytes and the style names where its rows are, the body is
//   split as it arrives (JsonRowSplitter): rows become NDJSON lines without being built as objects,
//   so a 100 000-row page costs little more memory than its own bytes, and the work overlaps the
//   download. The strategy still sees every other field (TableName, Remaining, BatchID...), and the
//   rows as a placeholder array of the right length (it only counts them).
import type { HeldPage } from '../export/sink';
import { parseJsonText } from '../export/jsonFault';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../export/jsonRowSplitter';
import { RowsRefusedError } from '../export/splitResult';
import { readBody, type HttpPort, type SendOptions } from '../http/client';
import type { HttpRequest, HttpResponse } from '../http/types';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { holdsLossyNumber } from '../json/numberText';
import { ownField, setOwnField } from '../json/ownField';
import { HELD_BODY_BYTES, readAnywhere } from './anywhereFetch';
import { warmUpAnywhereOnce } from './anywhereWarmUp';
import { EarlyBatches } from './earlyBatches';
import type { RowsWrite } from './laneRows';
import { placeholderRows, type StreamRows } from './rows';
import type { ParsedBody } from './types';

export type Send = (request: HttpRequest, options: SendOptions) => Promise<HttpResponse>;

export interface FetchedPage {
  readonly response: HttpResponse;
  readonly body: ParsedBody;
  /**
   * Present when the rows were streamed: their NDJSON bytes (those not handed to `early` yet), the
   * placeholder the strategy sees (one entry a row), and how many rows `early` already took.
   */
  readonly streamed?: {
    readonly ndjson: readonly Buffer[]; readonly rowCount: number; readonly placeholder: readonly unknown[]; readonly earlyRows: number;
    /** The rows' keys that may name a secret (JsonRowSplitter.secretKeyCandidates), for the sink. */
    readonly secretKeyCandidates: ReadonlySet<string>;
  };
}

export function parseBody(response: HttpResponse): ParsedBody {
  if (response.bodyText.trim() === '') return { ok: true, value: undefined };
  // Rows that deep would overflow every walk after the parse (redaction, CSV columns, the sink).
  if (jsonTextTooDeep(response.bodyText)) return { ok: false, error: `the body ${tooDeepText()}` };
  try {
    return { ok: true, value: parseJsonText(response.bodyText) };
  } catch (error) {
    if (error instanceof MalformedJsonError) return { ok: false, error: error.message };
    throw error;
  }
}

export async function fetchBuffered(send: Send, request: HttpRequest, options: SendOptions): Promise<FetchedPage> {
  const response = await send(request, options);
  return { response, body: parseBody(response) };
}

/**
 * Streams a 2xx body through the row splitter; other statuses are read whole (they are small). With
 * `early`, whole rows are handed over in batches while the body arrives (memory stays flat whatever
 * the body's size): one batch is written while the next is read, and reading waits for a batch's
 * write before it hands over the next. Without `rowBytes` (nothing will read the rows' NDJSON: they
 * are only counted), a small body may be read whole and parsed by JSON.parse instead (countedRows):
 * only where that reads exactly what the splitter reads, else the splitter reads the same bytes.
 */
export async function fetchStreamed(
  http: HttpPort, request: HttpRequest, options: SendOptions, rowsAt: StreamRows,
  early?: RowsWrite,
  rowBytes = true,
  tentative?: () => HeldPage | undefined,
): Promise<FetchedPage> {
  const clock = performance.now();
  const streaming = await http.stream(request, options);
  const head = { status: streaming.status, statusText: streaming.statusText, headers: streaming.headers, ...(streaming.redirects.length > 0 ? { redirects: streaming.redirects } : {}) };
  const timing = (): HttpResponse['timing'] => ({ startedAt: streaming.startedAt, firstByteMs: streaming.firstByteMs, totalMs: performance.now() - clock });
  if (streaming.status < 200 || streaming.status > 299) {
    const bytes = await readBody(streaming);
    const response: HttpResponse = { ...head, bodyText: bytes.toString('utf8'), timing: timing(), sizeBytes: bytes.length };
    return { response, body: parseBody(response) };
  }
  let read = (each: (chunk: Buffer) => void | Promise<void>): Promise<void> => streaming.read(each);
  if (rowsAt.anywhere && smallPlainBody(head.headers)) {
    // Declared small: held and parsed, as a buffered page (most responses of a run); one whose rows go
    // to a file and hold a number JSON.parse would change (1E400) is read as below (heldWhole's rule).
    const bytes = await readBody(streaming);
    const bodyText = bytes.toString('utf8');
    if (!early || !rowBytes || !holdsLossyNumber(bodyText)) {
      const response: HttpResponse = { ...head, bodyText, timing: timing(), sizeBytes: bytes.length };
      const body = parseBody(response);
      // One JSON.parse refuses, whose rows go somewhere, is read below as a larger one is: its rows fully received counted.
      if (body.ok || !early || jsonTextTooDeep(bodyText)) return { response, body };
    }
    read = async (each) => {
      await each(bytes);
    };
  }
  if (rowsAt.anywhere) {
    // No style: the rule finds the rows anywhere, as the body streams (anywhereFetch.ts).
    let got;
    try {
      const anywhere = rowsAt.anywhere;
      await warmUpAnywhereOnce();
      got = await readAnywhere(read, (body) => anywhere(body, head), early, rowBytes, tentative, rowsAt);
    } catch (error) {
      if (!(error instanceof MalformedJsonError)) throw error;
      return { response: { ...head, bodyText: '', timing: timing(), sizeBytes: 0 }, body: refusedBody(error) };
    }
    const response: HttpResponse = { ...head, bodyText: got.text, timing: timing(), sizeBytes: got.size };
    return { response, body: got.body, ...(got.streamed ? { streamed: got.streamed } : {}) };
  }
  const rowsField = rowsAt.field;
  if (!rowBytes && smallPlainBody(head.headers)) {
    const bytes = await readBody(streaming);
    const counted = countedRows(bytes, rowsField);
    if (counted) {
      const response: HttpResponse = { ...head, bodyText: '', timing: timing(), sizeBytes: bytes.length };
      return { response, body: { ok: true, value: counted.value }, ...(counted.streamed ? { streamed: counted.streamed } : {}) };
    }
    // Not provably the splitter's answer (or not JSON): the splitter reads the same bytes, with its words.
    read = async (each) => {
      await each(bytes);
    };
  }
  const { body, streamed, size } = await splitRows(read, rowsField, early);
  const response: HttpResponse = { ...head, bodyText: '', timing: timing(), sizeBytes: size };
  return { response, body, ...(streamed ? { streamed } : {}) };
}

/**
 * A body read through the row splitter (rows at `rowsField`, or a top-level array): its value for the
 * strategy, its rows (those not handed to `early` yet) and its size. A body cut, broken or timed out hands
 * `early` the rows fully received, then is refused in words (not JSON) or throws (what `read` threw).
 */
async function splitRows(read: (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>, rowsField: string | undefined, early: RowsWrite | undefined): Promise<{ body: ParsedBody; streamed?: FetchedPage['streamed']; size: number }> {
  const out = new ByteBlocks();
  const splitter = new JsonRowSplitter(rowsField, out);
  const batches = early ? new EarlyBatches(early) : undefined;
  let size = 0;
  let body: ParsedBody;
  let streamed: FetchedPage['streamed'];
  try {
    await read((chunk) => {
      size += chunk.length;
      splitter.push(chunk);
      // The stream waits (paused) until the batch before is written and this one is handed over.
      return batches?.hand(splitter, out, false);
    });
    const result = splitter.end();
    const placeholder: unknown[] = placeholderRows([], result.rowCount);
    const value = 'value' in result ? result.value
      : rowsField === undefined ? placeholder : result.rowsFound ? { ...result.fields, [rowsField]: placeholder } : result.fields;
    body = { ok: true, value };
    if (result.rowsFound) streamed = { ndjson: out.buffers(), rowCount: result.rowCount, placeholder, earlyRows: batches?.handed ?? 0, secretKeyCandidates: splitter.secretKeyCandidates };
  } catch (error) {
    // A body cut, broken or timed out: the rows fully received are handed over (none of rows refused).
    if (!(error instanceof RowsRefusedError)) await batches?.rescue(splitter, out);
    if (!(error instanceof MalformedJsonError)) {
      // Nothing may still be writing once the page has failed.
      await batches?.written().catch(() => undefined);
      throw error;
    }
    body = refusedBody(error);
  }
  // A batch that could not be written fails the page.
  await batches?.written();
  return { body, ...(streamed ? { streamed } : {}), size };
}

/** Bodies up to this size, declared and not compressed, may be counted whole (countedRows). */
export const COUNTED_BODY_BYTES = HELD_BODY_BYTES;

function smallPlainBody(headers: Readonly<Record<string, string>>): boolean {
  const declared = Number(headers['content-length']);
  return headers['content-length'] !== undefined && Number.isInteger(declared) && declared <= COUNTED_BODY_BYTES && headers['content-encoding'] === undefined;
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * What the row splitter would make of a whole body (its value for the strategy, and its rows when it
 * finds them) when only the rows' count is wanted, from JSON.parse; undefined where JSON.parse might read
 * it otherwise than the splitter, which then reads it. They agree on which bodies are JSON (held to
 * each other in test/paging/jsonRowSplitter.test.ts); past that, they could differ only on a key spelt
 * with an escape (no backslash may be in the body) and on a rows field given twice (the splitter refuses
 * it, JSON.parse keeps the last: its name may appear once only, as the quoted text `"name"`, anywhere).
 * A body that is not JSON goes to the splitter for its words.
 */
export function countedRows(bytes: Buffer, rowsField: string | undefined): { value: unknown; streamed?: NonNullable<FetchedPage['streamed']> } | undefined {
  if (bytes.includes(0x5c)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
  const rows = (count: number): NonNullable<FetchedPage['streamed']> => {
    const placeholder: unknown[] = placeholderRows([], count);
    return { ndjson: [], rowCount: count, placeholder, earlyRows: 0, secretKeyCandidates: NO_KEYS };
  };
  if (rowsField === undefined) {
    // A top-level array is the rows (the strategy sees the placeholder); any other body, as it is.
    if (!Array.isArray(parsed)) return { value: parsed };
    const streamed = rows(parsed.length);
    return { value: streamed.placeholder, streamed };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { value: parsed };
  // A name of printable ASCII other than `"` and `\` is spelt one way only in a body without escapes.
  if (/[^\x20-\x7e]|["\\]/.test(rowsField)) return undefined;
  const quoted = Buffer.from(`"${rowsField}"`);
  const at = bytes.indexOf(quoted);
  if (at >= 0 && bytes.indexOf(quoted, at + 1) >= 0) return undefined;
  const body = parsed as Record<string, unknown>;
  const found = ownField(body, rowsField);
  // No rows array at the top: every field, as the splitter keeps them.
  if (!Array.isArray(found)) return { value: parsed };
  // The other fields in their order, then the rows as a placeholder (the splitter's value).
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(body)) if (key !== rowsField) setOwnField(value, key, body[key]);
  const streamed = rows(found.length);
  setOwnField(value, rowsField, streamed.placeholder);
  return { value, streamed };
}

/** A page's body the splitter refused: not JSON, or JSON whose rows cannot be kept as given (said as JSON). */
function refusedBody(error: MalformedJsonError): { ok: false; error: string; json?: true } {
  return error instanceof RowsRefusedError ? { ok: false, error: error.message, json: true } : { ok: false, error: error.message };
}
