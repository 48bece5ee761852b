// Fetching one page for the walker, two ways:
// - buffered: the whole body is read, decoded and JSON-parsed (any sink, any style);
// - streamed: when the sink takes NDJSON bytes and the style names where its rows are, the body is
//   split as it arrives (JsonRowSplitter): rows become NDJSON lines without being built as objects,
//   so a 100 000-row page costs little more memory than its own bytes, and the work overlaps the
//   download. The strategy still sees every other field (TableName, Remaining, BatchID...), and the
//   rows as a placeholder array of the right length (it only counts them);
// - either way, a 2xx body within the held bound is read whole first and parsed by JSON.parse where that
//   answers as the splitter would (heldBody.ts: one rule), else replayed into the splitter.
import type { HeldPage } from '../export/sink';
import { parseJsonText } from '../export/jsonFault';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../export/jsonRowSplitter';
import { RowsRefusedError } from '../export/splitResult';
import { readBody, type HttpPort, type SendOptions } from '../http/client';
import type { HttpRequest, HttpResponse } from '../http/types';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { isJsonObject } from '../json/numberText';
import { ownField, setOwnField } from '../json/ownField';
import { heldAnywhere, readAnywhere } from './anywhereFetch';
import { warmUpAnywhereOnce } from './anywhereWarmUp';
import { EarlyBatches, type LongRowWrite } from './earlyBatches';
import { HELD, heldOrStreamed, type HeldBody, type Read } from './heldBody';
import type { RowsWrite } from './laneRows';
import { pathKeys, placeholderRows, type StreamRows } from './rows';
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
 * write before it hands over the next. A body within the held bound (heldBody.ts) is parsed whole
 * instead where that reads what the splitter would: found anywhere (heldAnywhere), or, without
 * `rowBytes` (nothing will read the rows' NDJSON: they are only counted), at a rows field (countedRows);
 * else the splitter reads the same bytes.
 */
export async function fetchStreamed(
  http: HttpPort, request: HttpRequest, options: SendOptions, rowsAt: StreamRows,
  early?: RowsWrite,
  rowBytes = true,
  tentative?: () => HeldPage | undefined,
  longRow?: LongRowWrite,
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
  const read: Read = (each) => streaming.read(each);
  if (rowsAt.anywhere) {
    // No style: the rule finds the rows anywhere, in a body held whole or as it streams (anywhereFetch.ts).
    let got;
    try {
      const anywhere = rowsAt.anywhere;
      got = await heldOrStreamed(read, (held) => heldAnywhere(held, early, rowBytes), async (rest) => {
        await warmUpAnywhereOnce();
        return readAnywhere(rest, (body) => anywhere(body, head), early, rowBytes, tentative, rowsAt, longRow);
      }, HELD, rowsAt.path === undefined ? 2 : Math.max(2, pathKeys(rowsAt.path).length));
    } catch (error) {
      if (!(error instanceof MalformedJsonError)) throw error;
      return { response: { ...head, bodyText: '', timing: timing(), sizeBytes: 0 }, body: refusedBody(error) };
    }
    const response: HttpResponse = { ...head, bodyText: got.text, timing: timing(), sizeBytes: got.size };
    return { response, body: got.body, ...(got.streamed ? { streamed: got.streamed } : {}) };
  }
  const rowsField = rowsAt.field;
  // Only counted (nobody reads the rows' bytes): a body held whole may be counted by JSON.parse (countedRows).
  const counted = rowBytes ? undefined : (held: HeldBody): SplitPage | undefined => {
    const page = countedRows(held, rowsField);
    return page && { body: { ok: true, value: page.value }, ...(page.streamed ? { streamed: page.streamed } : {}), size: held.bytes.length };
  };
  const { body, streamed, size } = await heldOrStreamed(read, counted, (rest) => splitRows(rest, rowsField, early, longRow));
  const response: HttpResponse = { ...head, bodyText: '', timing: timing(), sizeBytes: size };
  return { response, body, ...(streamed ? { streamed } : {}) };
}

/** A page's body as the row splitter reads it: its value for the strategy, its rows, its size. */
interface SplitPage { body: ParsedBody; streamed?: FetchedPage['streamed']; size: number }

/**
 * A body read through the row splitter (rows at `rowsField`, or a top-level array): its value for the
 * strategy, its rows (those not handed to `early` yet) and its size. A body cut, broken or timed out hands
 * `early` the rows fully received, then is refused in words (not JSON) or throws (what `read` threw).
 */
async function splitRows(read: Read, rowsField: string | undefined, early: RowsWrite | undefined, longRow: LongRowWrite | undefined): Promise<SplitPage> {
  const out = new ByteBlocks();
  const splitter = new JsonRowSplitter(rowsField, out);
  const batches = early ? new EarlyBatches(early, longRow && { parts: splitter.letLongRowsOut(), write: longRow }) : undefined;
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

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * What the row splitter would make of a body held whole and parsed (heldBody.ts: JSON.parse reads it as
 * the splitter would) when only the rows' count is wanted: its value for the strategy, and its rows when
 * it finds them; undefined for a body of blanks (the splitter's to answer).
 */
export function countedRows(held: HeldBody, rowsField: string | undefined): { value: unknown; streamed?: NonNullable<FetchedPage['streamed']> } | undefined {
  const parsed = held.value;
  if (parsed === undefined) return undefined;
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
  if (!isJsonObject(parsed)) return { value: parsed };
  const found = ownField(parsed, rowsField);
  // No rows array at the top: every field, as the splitter keeps them.
  if (!Array.isArray(found)) return { value: parsed };
  // The other fields in their order, then the rows as a placeholder (the splitter's value).
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(parsed)) if (key !== rowsField) setOwnField(value, key, parsed[key]);
  const streamed = rows(found.length);
  setOwnField(value, rowsField, streamed.placeholder);
  return { value, streamed };
}

/** A page's body the splitter refused: not JSON (or nested too deep), or JSON whose rows cannot be kept as given (said as JSON). */
function refusedBody(error: MalformedJsonError): { ok: false; error: string; json?: true } {
  return error instanceof RowsRefusedError ? { ok: false, error: error.message, json: true } : { ok: false, error: error.message };
}
