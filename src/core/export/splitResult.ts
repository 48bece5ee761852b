// What the row splitter (jsonRowSplitter.ts) gives back: its result, the arrays it found in "anywhere"
// mode, what that mode keeps of a body, and its fault for a body that is not JSON.
import { tooDeepText } from '../json/depth';

/**
 * Where a body stops being JSON, as facts: a byte JSON.parse would refuse (`offset`, and what is wrong
 * there), or its end before the value is complete (`offset`: the bytes it had). Their words are written
 * in one place (faultWords), so a reader that saw a part of a body can say the fault at its byte in the
 * whole (MalformedJsonError.at) without reading the words back.
 */
export type JsonFault =
  | { readonly endedEarly: false; readonly offset: number; readonly what: string }
  | { readonly endedEarly: true; readonly offset: number };

function faultWords(fault: JsonFault): string {
  return fault.endedEarly ? `malformed JSON: the body ends early (after ${fault.offset} bytes)` : `malformed JSON at byte ${fault.offset}: ${fault.what}`;
}

export class MalformedJsonError extends Error {
  /** The fault as facts, when it is one of a byte or of an early end (else only words: a field's, a bound's). */
  readonly fault: JsonFault | undefined;

  constructor(said: string | JsonFault) {
    super(typeof said === 'string' ? said : faultWords(said));
    this.name = 'MalformedJsonError';
    this.fault = typeof said === 'string' ? undefined : said;
  }

  /** The same fault said at byte `offset` of the whole body (this one, when it names no byte). */
  at(offset: number): MalformedJsonError {
    return this.fault ? new MalformedJsonError({ ...this.fault, offset }) : this;
  }
}

/** A body that is JSON, but whose rows cannot be kept as it gives them: said as such, never as "not valid JSON". */
export class RowsRefusedError extends MalformedJsonError {
  constructor(message: string) {
    super(message);
    this.name = 'RowsRefusedError';
  }
}

/**
 * A body nested deeper than the product reads (MAX_JSON_DEPTH): refused as it streams, in the words a body
 * read whole is refused in (pageFetch.ts parseBody), whatever path its bytes take; as a body that is not
 * JSON, the rows fully received before it are kept.
 */
export class TooDeepError extends MalformedJsonError {
  constructor() {
    super(`the body ${tooDeepText()}`);
    this.name = 'TooDeepError';
  }
}

/**
 * A body that is JSON, but names its rows field twice: JSON.parse keeps the last, while the rows of the
 * first are already on their way, so the page takes neither, and says so.
 */
export class RowsFieldTwiceError extends RowsRefusedError {
  constructor(field: string, at: number) {
    super(`the rows field "${field}" appears twice in the body (again at byte ${at}): JSON.parse would keep the last, but the rows of the first were already read, so neither is taken`);
    this.name = 'RowsFieldTwiceError';
  }
}

/**
 * An array found one level down in an object body (or the top-level array, path '$') while the body
 * streamed in "anywhere" mode: where it is, how many items it has, and how many of its first
 * ROWS_SAMPLE items are objects (what the rows rule weighs); `items` is the placeholder the body's
 * skeleton holds for it (filled by the caller, see rows.ts placeholderRows).
 */
export interface Lane {
  readonly path: string;
  count: number;
  sampled: number;
  objects: number;
  readonly items: unknown[];
}

/** "Anywhere" mode (the rows rule decides at the end): what is kept of a body that is not held. */
export interface AnywhereOptions {
  /** Fields a check or a step reads by name (business keys, next links, a style's fields): kept whole up to the held-value bound. */
  readonly alwaysKept: ReadonlySet<string>;
  /** Of those, the business check's words: kept only up to 16 MiB (it says when they were not); never a link or a step's field. */
  readonly wordsKept?: ReadonlySet<string>;
  /** Top-level names a check reads by name (besides alwaysKept): named whenever not held (notHeld.ts, markFieldNotHeld). */
  readonly named?: ReadonlySet<string>;
  /** A top-level field above this many bytes is not kept (a marker string stands for a business key). */
  readonly fieldBytes: number;
  /** Top-level fields kept in all, beyond which a field is kept only as `summarise` makes it. */
  readonly keptBytes: number;
  /** What of a field over the budget the rows rule can still read (undefined: nothing, always for a value without an array); none: nothing is. */
  readonly summarise?: (value: unknown) => unknown;
  /**
   * An array one level down opened: its placeholder, just set in the fields, handed to the caller that
   * keeps the lanes (laneRows.ts), and not listed in the result's `lanes` (a body may hold millions).
   */
  readonly laneOpened?: (items: unknown[]) => void;
  /**
   * Whether a top-level array of this name is a lane (counted, its items not kept); else it is a field,
   * kept as any other. By default every array but the business-error lists (rows.ts ERROR_LIST_KEYS).
   */
  readonly lane?: (key: string) => boolean;
}

export interface SplitResult {
  /** Every top-level field except the rows, parsed. */
  readonly fields: Record<string, unknown>;
  readonly rowCount: number;
  /** False when the body had no rows array where expected (the caller then reads `fields`). */
  readonly rowsFound: boolean;
  /** Set when the body was not of the expected shape (object vs array): the whole body, parsed. */
  readonly value?: unknown;
  /** Anywhere mode: the arrays one level down (or the top-level array), in body order. */
  readonly lanes?: readonly Lane[];
  /**
   * Anywhere mode: a top-level field too large to keep held an array inside it, which the rows rule
   * might have chosen: the skeleton alone cannot say where the rows are.
   */
  readonly uncertain?: boolean;
  /** Anywhere mode: the body was a string, number or literal (no rows; nothing kept of it). */
  readonly scalar?: boolean;
}
