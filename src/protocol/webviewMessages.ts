// The results panel's host↔webview protocol: one zod discriminated union each way, validated on receipt on
// both sides. zod/mini keeps the webview bundle small; the schemas are the single definition of the view model.
// Rows travel as JSON text, not as an object graph: structured-cloning 100 000 row objects on their way into
// the webview costs about two seconds, a 15 MB string a few milliseconds. A big response comes in two
// messages: `show` with the first HEAD_ROWS (a first screen, drawn at once) and, right after it, `showRest`
// with the other rows and the pretty-printed body, named by the show's id (one for another show is stale
// and dropped). So the host redacts and encodes only a screenful before the first paint. The decoders check
// each part parses to an array of the announced length; rows are rendered only as text, so no per-cell
// schema is needed: the envelope is validated, not 100 000 rows one by one. Rows the host marks
// `numbersAsWritten` hold a number a double would change (12345678901234567890, 1.10), written as its text:
// read back as that text (NumberText, json/numberText.ts); the others by JSON.parse alone (no scan).
import * as z from 'zod/mini';
import { parseKeepingNumbers } from '../core/json/numberText';

const count = () => z.number().check(z.int(), z.nonnegative());

export const HeaderLineSchema = z.object({ name: z.string(), value: z.string() });

export const BodyViewSchema = z.object({
  /** Pretty-printed JSON or the raw text, cut at the display limit. Shown as text only, never executed. */
  text: z.string(),
  language: z.enum(['json', 'text']),
  truncated: z.boolean(),
  totalChars: count(),
  /** Why the body is cut, or that it is not JSON; for people. */
  note: z.optional(z.string()),
  /** A body read from disk a page at a time: this is page `index` of `count` (others: `wantBodyPage`). */
  page: z.optional(z.object({ index: count(), count: count() })),
});

export const ColumnSchema = z.object({ key: z.string(), label: z.string() });

export const TableWireSchema = z.object({
  /** Where the rows come from: '$' for a top-level array, else the field path ('Data', 'Result.Items'). */
  source: z.string(),
  /** objects: each row is an object keyed by column keys; values: each row is itself the single cell. */
  kind: z.enum(['objects', 'values']),
  columns: z.array(ColumnSchema),
  rowCount: count(),
  /** JSON text of the first rows (at most HEAD_ROWS); the others follow in a `showRest` when rowCount says so. */
  headJson: z.string(),
  /** The body view follows in the `showRest` (this one is a placeholder), set for a table with more than HEAD_ROWS rows. */
  restFollows: z.optional(z.boolean()),
  /** The rows are on disk (a large response): this many, the first in headJson, the others asked for with `wantRows`. */
  pagedRows: z.optional(count()),
  /** The rows' JSON (headJson, the showRest's) writes a number a double would change as its text: read it so. */
  numbersAsWritten: z.optional(z.literal(true)),
});

export const BusinessFailureSchema = z.object({
  code: z.optional(z.number()),
  message: z.string(),
  /** Every catalogue meaning of the code; more than one when the catalogue itself is ambiguous. */
  meanings: z.array(z.string()),
  /** Set when the code has several published meanings (SurveyApi 14) or none. */
  note: z.optional(z.string()),
});

export const BusinessBannerSchema = z.object({
  convention: z.string(),
  catalogue: z.optional(z.string()),
  httpStatus: z.number(),
  /** A plain sentence about the HTTP status (e.g. that it was 200 although the call failed). */
  statusNote: z.string(),
  failures: z.array(BusinessFailureSchema),
});

export const AuthExplanationSchema = z.object({ title: z.string(), explanation: z.string() });

export const PagingStateSchema = z.object({
  style: z.string(),
  styleLabel: z.string(),
  pages: count(),
  rows: count(),
  canContinue: z.boolean(),
  walking: z.boolean(),
  endReason: z.optional(z.string()),
  /** A finished walk's verdict as a sentence (a History entry reopened): the bar says it instead of the counts. */
  verdict: z.optional(z.string()),
});

export const HistoryEntrySchema = z.object({
  receivedAt: z.string(),
  method: z.string(),
  url: z.string(),
  status: z.number(),
  statusText: z.string(),
  totalMs: z.number(),
  sizeBytes: count(),
  rowCount: z.optional(count()),
  businessFailed: z.boolean(),
});

export const TestResultSchema = z.object({
  /** One-based line of the `??` line in its file. */
  line: count(),
  text: z.string(),
  outcome: z.enum(['passed', 'failed']),
  expected: z.string(),
  actual: z.string(),
});

/** The request's `??` assertions as checked against this response, and the scripts it did not run. */
export const TestsViewSchema = z.object({
  passed: count(),
  failed: count(),
  results: z.array(TestResultSchema),
  notRun: z.array(z.object({ line: count(), what: z.string() })),
});

export const ContractFindingSchema = z.object({
  /** undocumented-field, missing-field, type-mismatch, unknown-error-code, missing-paging-header, missing-paging-field. */
  kind: z.string(),
  /** JSON path into the body, or `header:<Name>`. */
  path: z.string(),
  message: z.string(),
  /** The contract section the finding is measured against ("seed 000 §2.4"). */
  section: z.string(),
});

export const ContractViewSchema = z.object({
  /** The catalog operation the response was checked against; absent when it matches none. */
  operation: z.optional(z.string()),
  findings: z.array(ContractFindingSchema),
  /** What was not checked and why (the contract does not show it), in words. */
  notChecked: z.array(z.string()),
});

export const ResultsViewModelWireSchema = z.object({
  /** Unique per response; lets the webview keep its scroll and search across a reload of the same response. */
  id: z.string(),
  requestKey: z.string(),
  title: z.string(),
  request: z.object({ method: z.string(), url: z.string(), headers: z.array(HeaderLineSchema) }),
  status: z.number(),
  statusText: z.string(),
  statusClass: z.enum(['informational', 'success', 'redirect', 'client-error', 'server-error']),
  receivedAt: z.string(),
  timing: z.object({ totalMs: z.number(), firstByteMs: z.number(), text: z.string() }),
  size: z.object({ bytes: count(), text: z.string() }),
  headers: z.array(HeaderLineSchema),
  body: BodyViewSchema,
  table: z.optional(TableWireSchema),
  businessErrors: z.optional(BusinessBannerSchema),
  auth: z.optional(AuthExplanationSchema),
  paging: z.optional(PagingStateSchema),
  history: z.array(HistoryEntrySchema),
  tests: z.optional(TestsViewSchema),
  contract: z.optional(ContractViewSchema),
});

export const ExportFormatSchema = z.enum(['ndjson', 'csv']);

export const HostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('show'), viewModel: ResultsViewModelWireSchema }),
  z.object({
    type: z.literal('showRest'),
    /** The `show` these rows complete (its view model's id). */
    id: z.string(),
    /** The rows after the show's head: rowCount − HEAD_ROWS of them. */
    rowCount: count(),
    rowsJson: z.string(),
    /** As the table's: rowsJson writes a number a double would change as its text. */
    numbersAsWritten: z.optional(z.literal(true)),
    /** Every column of the table: the show's (those of its first rows) first, then keys only later rows have. */
    columns: z.array(ColumnSchema),
    body: BodyViewSchema,
  }),
  z.object({
    type: z.literal('appendRows'),
    rowCount: count(),
    rowsJson: z.string(),
    /** The full column list after the new rows (a later page may add keys). */
    columns: z.array(ColumnSchema),
    paging: PagingStateSchema,
  }),
  z.object({
    type: z.literal('progress'),
    pages: count(),
    rows: count(),
    rowsPerSecond: z.number(),
    elapsedMs: z.number(),
    pagesPerSecond: z.optional(z.number()),
    /** Pages of the whole walk, when the server says; then the time left at this rate. */
    totalPages: z.optional(count()),
    timeLeftMs: z.optional(z.number()),
    /** Waits on the server so far (rate limited, a spent quota) and their time. */
    waits: z.optional(count()),
    waitedMs: z.optional(z.number()),
    /** Workspace-relative path of the file the walk streams to. */
    file: z.optional(z.string()),
    /** Why the walk is waiting ("rate limited: waiting 12 s", a sign-in, a transient extraction error). */
    waiting: z.optional(z.string()),
  }),
  z.object({
    type: z.literal('walkEnded'),
    ok: z.boolean(),
    message: z.string(),
    paging: PagingStateSchema,
    file: z.optional(z.string()),
  }),
  /** Rows of a table on disk (pagedRows), as asked for by `wantRows`; `problem` when they could not be read. */
  z.object({
    type: z.literal('rows'),
    id: z.string(),
    from: count(),
    rowCount: count(),
    rowsJson: z.string(),
    columns: z.array(ColumnSchema),
    problem: z.optional(z.string()),
  }),
  /** A page of a body on disk, as asked for by `wantBodyPage`. */
  z.object({ type: z.literal('bodyPage'), id: z.string(), body: BodyViewSchema }),
  /** Why a press of Next page or All pages was refused: said in the paging bar and announced. */
  z.object({ type: z.literal('notice'), text: z.string().check(z.maxLength(2000)) }),
]);

export const WebviewToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('nextPage') }),
  z.object({ type: z.literal('allPages'), format: ExportFormatSchema }),
  z.object({ type: z.literal('stop') }),
  /**
   * Write the rows on screen (all pages fetched so far) to a file. `responseId`: the view model the rows
   * are of (its id), so the host never exports another response that replaced it meanwhile.
   */
  z.object({ type: z.literal('export'), format: ExportFormatSchema, responseId: z.optional(z.string().check(z.maxLength(200))) }),
  z.object({ type: z.literal('copy'), text: z.string().check(z.maxLength(5_000_000)) }),
  z.object({ type: z.literal('openRow'), index: count() }),
  /** Rows of a table on disk (the shown response `id`): at most 1000 from `from`. */
  z.object({ type: z.literal('wantRows'), id: z.string().check(z.maxLength(200)), from: count(), count: count().check(z.maximum(1000)) }),
  z.object({ type: z.literal('wantBodyPage'), id: z.string().check(z.maxLength(200)), page: count() }),
]);

export type HeaderLine = z.infer<typeof HeaderLineSchema>;
export type BodyView = z.infer<typeof BodyViewSchema>;
export type Column = z.infer<typeof ColumnSchema>;
export type TableWire = z.infer<typeof TableWireSchema>;
/** The table as both sides hold it: the rows decoded. */
export type TableView = Omit<TableWire, 'headJson' | 'restFollows' | 'rowCount' | 'numbersAsWritten'> & { readonly rows: unknown[] };
export type BusinessFailureView = z.infer<typeof BusinessFailureSchema>;
export type BusinessBanner = z.infer<typeof BusinessBannerSchema>;
export type AuthExplanation = z.infer<typeof AuthExplanationSchema>;
export type PagingState = z.infer<typeof PagingStateSchema>;
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type TestsView = z.infer<typeof TestsViewSchema>;
export type ContractView = z.infer<typeof ContractViewSchema>;
export type ResultsViewModelWire = z.infer<typeof ResultsViewModelWireSchema>;
/** What the host builds and the webview renders; on the wire its rows are a JSON string (see encodeViewModel). */
export type ResultsViewModel = Omit<ResultsViewModelWire, 'table'> & { table?: TableView };
export type ExportFormat = z.infer<typeof ExportFormatSchema>;
export type HostToWebviewMessage = z.infer<typeof HostToWebviewSchema>;
export type ShowRestMessage = Extract<HostToWebviewMessage, { type: 'showRest' }>;
export type WebviewToHostMessage = z.infer<typeof WebviewToHostSchema>;

export function encodeRows(rows: readonly unknown[]): { rowCount: number; rowsJson: string } {
  return { rowCount: rows.length, rowsJson: JSON.stringify(rows) };
}

/** The rows of a message, or undefined when they are not JSON for an array of the announced length. */
export function decodeRows(rowsJson: string, rowCount: number, numbersAsWritten = false): unknown[] | undefined {
  const rows = parseArray(rowsJson, numbersAsWritten);
  return rows && rows.length === rowCount ? rows : undefined;
}

/** Rows sent ahead of the rest in a `show`: more than any screen holds. */
export const HEAD_ROWS = 200;

/** A decoded `show`: its first rows (the table's rows are the head) and how many more its `showRest` brings. */
export interface DecodedShow {
  readonly viewModel: ResultsViewModel;
  readonly rowCount: number;
  /** Rows announced beyond the head; 0 when the table is whole. */
  readonly pending: number;
  /** A `showRest` with the rest of the rows and the body view follows. */
  readonly restFollows: boolean;
}

/**
 * A `show` with only its first rows decoded. Undefined, logged, when the head is not JSON for an array
 * that fits the announced row count, or when rows are announced beyond the head without a `showRest`.
 */
export function decodeViewModelHead(wire: ResultsViewModelWire, log: ProtocolLog): DecodedShow | undefined {
  const { table, ...rest } = wire;
  if (!table) return { viewModel: rest, rowCount: 0, pending: 0, restFollows: false };
  const { headJson, rowCount, restFollows, numbersAsWritten, ...shape } = table;
  const head = parseArray(headJson, numbersAsWritten === true);
  const paged = shape.pagedRows !== undefined && shape.pagedRows === rowCount;
  if (!head || head.length > rowCount || (head.length < rowCount && !paged && (head.length < HEAD_ROWS || !restFollows))) {
    log(`ignored a 'show' message whose first rows are not a JSON array fitting ${rowCount} rows`);
    return undefined;
  }
  return { viewModel: { ...rest, table: { ...shape, rows: head } }, rowCount, pending: paged ? 0 : rowCount - head.length, restFollows: restFollows === true };
}

/**
 * The rows a `showRest` brings to a decoded show, or a reason it does not apply: another show's (stale),
 * or rows that are not a JSON array of exactly the pending count.
 */
export function decodeShowRest(shown: { readonly id: string; readonly pending: number }, message: ShowRestMessage): { ok: true; rows: unknown[] } | { ok: false; stale: boolean; reason: string } {
  if (message.id !== shown.id) return { ok: false, stale: true, reason: `ignored the rest of another response (${message.id.slice(0, 40)})` };
  const rows = message.rowCount === shown.pending ? decodeRows(message.rowsJson, message.rowCount, message.numbersAsWritten === true) : undefined;
  if (!rows) return { ok: false, stale: false, reason: `the last ${shown.pending} rows of the response did not decode` };
  return { ok: true, rows };
}

/** Rows' JSON; `numbersAsWritten`: each number a double would change kept as its text (NumberText). */
function parseArray(json: string, numbersAsWritten: boolean): unknown[] | undefined {
  try {
    const value: unknown = numbersAsWritten ? parseKeepingNumbers(json) : JSON.parse(json);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Where a rejected message is reported: only the message type and the zod issue paths, never its content. */
export type ProtocolLog = (line: string) => void;

function describeRejection(data: unknown, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const type = typeof data === 'object' && data !== null && 'type' in data ? String(data.type).slice(0, 40) : typeof data;
  const where = issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');
  return `ignored an invalid '${type}' message (${where})`;
}

/** Validates a message the webview received; an invalid one is logged and dropped (undefined), never thrown. */
export function parseHostToWebview(data: unknown, log: ProtocolLog): HostToWebviewMessage | undefined {
  const result = HostToWebviewSchema.safeParse(data);
  if (result.success) return result.data;
  log(describeRejection(data, result.error.issues));
  return undefined;
}

/** Validates a message the host received; an invalid one is logged and dropped (undefined), never thrown. */
export function parseWebviewToHost(data: unknown, log: ProtocolLog): WebviewToHostMessage | undefined {
  const result = WebviewToHostSchema.safeParse(data);
  if (result.success) return result.data;
  log(describeRejection(data, result.error.issues));
  return undefined;
}
