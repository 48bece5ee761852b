// A body whose rows the rule finds anywhere (no paging style: rows.ts, `anywhere`), read as it arrives,
// never held twice:
// - a small body (up to HELD_BODY_BYTES) is held and parsed, as a buffered page is;
// - a top-level array's rows go out as NDJSON while they arrive (early batches), counted;
// - an object is scanned once for its skeleton (the fields the business check and the rule read, each
//   array one level down as a placeholder of its length and object share) and spilled to a temp file
//   (src/core/json/spill.ts); the rule picks the rows from the skeleton, and only when someone reads
//   their bytes are that array's rows split out of the spilled file; the file is removed after;
// - a string, number or literal is validated and not kept.
// Where the skeleton cannot answer as the whole body would (an array inside a field too large to keep,
// rows two levels down in a field kept only as a summary), the spilled body is parsed whole: the old cost,
// for those shapes only.
import { BUSINESS_ERROR_KEYS } from '../catalog/businessErrors';
import { recycleBlocks } from '../export/byteBlocks';
import { ByteBlocks, JsonRowSplitter } from '../export/jsonRowSplitter';
import type { AnywhereOptions } from '../export/splitResult';
import { firstNonBlank } from '../json/grammar';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { openSpill, type Spill } from '../json/spill';
import { placeholderRows, rowsSummary, type RowsFound } from './rows';
import { NEXT_LINK_FIELDS } from './strategies/generic';
import type { ParsedBody } from './types';

/** What the anywhere read makes of a body: its value for the strategy, its text when held, its streamed rows. */
interface AnywhereBody {
  readonly body: ParsedBody;
  /** The body's text when it was small enough to hold ('' otherwise). */
  readonly text: string;
  readonly size: number;
  readonly streamed?: {
    readonly ndjson: readonly Buffer[]; readonly rowCount: number; readonly placeholder: readonly unknown[]; readonly earlyRows: number;
    readonly secretKeyCandidates: ReadonlySet<string>;
  };
}

type Early = (ndjson: readonly Buffer[], rows: number, secretKeyCandidates: ReadonlySet<string>) => Promise<void>;
type Read = (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>;

/** Held and parsed whole up to this size (a buffered page's cost); streamed past it. */
export const HELD_BODY_BYTES = 256 * 1024;
const EARLY_BATCH_BYTES = 1 << 20;
const NO_KEYS: ReadonlySet<string> = new Set();

const OPEN_OBJ = 0x7b, OPEN_ARR = 0x5b;

/**
 * Reads a body through `read`, finding its rows with `find` (the rows rule). `early` takes whole rows
 * while they arrive (or, for an object body, while they are split out of the spilled file); without
 * `rowBytes` nobody reads the rows' bytes, only their count. Throws MalformedJsonError for a body that is
 * not JSON (the rows already handed to `early` stay handed over), and what `read` or `early` throw.
 */
export async function readAnywhere(read: Read, find: (body: unknown) => RowsFound, early: Early | undefined, rowBytes: boolean): Promise<AnywhereBody> {
  const summaries = new WeakSet<object>();
  const options: AnywhereOptions = {
    alwaysKept: new Set([...BUSINESS_ERROR_KEYS, ...NEXT_LINK_FIELDS]),
    fieldBytes: 1 << 20,
    keptBytes: 8 << 20,
    summarise: (value) => {
      const summary = rowsSummary(value);
      if (summary) for (const inner of Object.values(summary)) summaries.add(inner as object);
      return summary;
    },
  };
  const out = new ByteBlocks();
  const splitter = new JsonRowSplitter(undefined, out, options);
  let size = 0;
  let small: Buffer[] | undefined = [];
  let shape: number | undefined;
  let spill: Spill | undefined;
  let earlyRows = 0;
  let writing: Promise<void> | undefined;
  /** Hands `out`'s whole rows to `early` once a batch is full (or `last`): one batch written while the next is read. */
  const batch = async (from: JsonRowSplitter, batchOut: ByteBlocks, last: boolean): Promise<void> => {
    if (!early || (!last && batchOut.length < EARLY_BATCH_BYTES)) return;
    await writing;
    const rows = from.rowsSoFar - earlyRows;
    earlyRows = from.rowsSoFar;
    const taken = batchOut.take();
    writing = early(taken, rows, from.secretKeyCandidates).then(() => recycleBlocks(taken));
    writing.catch(() => undefined);
  };
  try {
    await read((chunk) => {
      size += chunk.length;
      shape ??= firstNonBlank(chunk);
      splitter.push(chunk);
      if (small) {
        if (size <= HELD_BODY_BYTES) {
          small.push(Buffer.from(chunk));
          return undefined;
        }
        const before = small;
        small = undefined;
        if (shape === OPEN_OBJ) {
          return (async () => {
            spill = await openSpill();
            for (const piece of before) await spill.write(piece);
            await spill.write(chunk);
          })();
        }
      } else if (spill) return spill.write(chunk);
      return shape === OPEN_ARR && early && out.length >= EARLY_BATCH_BYTES ? batch(splitter, out, false) : undefined;
    });
    const result = splitter.end();
    if (small) {
      // Held whole: parsed as a buffered page is (nested too deep for the product: refused, as there).
      recycleBlocks(out.take());
      const text = Buffer.concat(small).toString('utf8');
      if (jsonTextTooDeep(text)) return { body: { ok: false, error: `the body ${tooDeepText()}` }, text, size };
      return { body: { ok: true, value: text.trim() === '' ? undefined : JSON.parse(text) as unknown }, text, size };
    }
    if (result.scalar) return { body: { ok: true, value: undefined }, text: '', size };
    for (const lane of result.lanes ?? []) placeholderRows(lane.items, lane.count, lane.sampled, lane.objects);
    if (shape === OPEN_ARR) {
      const lane = result.lanes![0]!;
      await batch(splitter, out, true);
      await writing;
      return { body: { ok: true, value: lane.items }, text: '', size, streamed: { ndjson: early ? [] : out.buffers(), rowCount: lane.count, placeholder: lane.items, earlyRows, secretKeyCandidates: splitter.secretKeyCandidates } };
    }
    const skeleton = result.fields;
    const found = find(skeleton);
    const lane = found.ok ? result.lanes?.find((l) => l.items === found.rows) : undefined;
    if (result.uncertain || (found.ok && !lane && summaries.has(found.rows))) {
      // The skeleton cannot say: the spilled body, parsed whole.
      const parts: Buffer[] = [];
      await spill!.readBack((piece) => { parts.push(Buffer.from(piece)); });
      return { body: { ok: true, value: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown }, text: '', size };
    }
    if (!lane) return { body: { ok: true, value: skeleton }, text: '', size };
    if (!rowBytes) {
      return { body: { ok: true, value: skeleton }, text: '', size, streamed: { ndjson: [], rowCount: lane.count, placeholder: lane.items, earlyRows: 0, secretKeyCandidates: NO_KEYS } };
    }
    // The chosen array's rows, split out of the spilled body as they are read back.
    const rowsOut = new ByteBlocks();
    const rowsSplitter = new JsonRowSplitter(lane.path, rowsOut);
    await spill!.readBack((piece) => {
      rowsSplitter.push(piece);
      return batch(rowsSplitter, rowsOut, false);
    });
    rowsSplitter.end();
    await batch(rowsSplitter, rowsOut, true);
    await writing;
    return { body: { ok: true, value: skeleton }, text: '', size, streamed: { ndjson: early ? [] : rowsOut.buffers(), rowCount: lane.count, placeholder: lane.items, earlyRows, secretKeyCandidates: rowsSplitter.secretKeyCandidates } };
  } catch (error) {
    await writing?.catch(() => undefined);
    // A body cut or broken mid-stream: the rows of a top-level array fully received are handed over
    // too (never part of a row: `out` holds whole rows only), then the fault goes on.
    if (shape === OPEN_ARR && early && splitter.rowsSoFar > earlyRows) await early(out.take(), splitter.rowsSoFar - earlyRows, splitter.secretKeyCandidates).catch(() => undefined);
    throw error;
  } finally {
    await spill?.remove();
  }
}
