// Reading an object body of many small arrays the way the exchange does (readAnywhere, rows written as
// NDJSON), for the lane tests: what was written, the row count, how many arrays each question to the rows
// rule held, and the fault; the sinks those tests write to. Not a test (no .test.ts suffix).
import type { HeldPage, RowSink } from '../../src/core/export/sink';
import { readAnywhere } from '../../src/core/paging/anywhereFetch';
import { rowsRule, type RowsFound, type RowsRule } from '../../src/core/paging/rows';

export const rule = rowsRule('none', {});
export const CHUNK = 65536;

export interface Read {
  readonly lines: unknown[];
  readonly rowCount: number | undefined;
  /** How many arrays (one and two levels down) each skeleton handed to the rule held, in order. */
  readonly asked: number[];
  readonly error: unknown;
}

function arraysIn(body: unknown): number {
  if (body === null || typeof body !== 'object') return 0;
  let n = 0;
  for (const value of Object.values(body as Record<string, unknown>)) {
    if (Array.isArray(value)) n++;
    else if (value !== null && typeof value === 'object') n += Object.values(value as Record<string, unknown>).filter(Array.isArray).length;
  }
  return n;
}

export async function read(text: string, cut = Buffer.byteLength(text), step = CHUNK): Promise<Read> {
  const bytes = Buffer.from(text).subarray(0, cut);
  const written: string[] = [];
  const asked: number[] = [];
  let rowCount: number | undefined;
  let error: unknown;
  try {
    const result = await readAnywhere(async (each) => {
      for (let i = 0; i < bytes.length; i += step) await each(bytes.subarray(i, i + step));
    }, (body: unknown): RowsFound => {
      asked.push(arraysIn(body));
      return rule.find(body);
    }, (ndjson) => {
      written.push(Buffer.concat(ndjson).toString('utf8'));
      return Promise.resolve();
    }, true);
    rowCount = result.streamed?.rowCount;
  } catch (e) {
    error = e;
  }
  const lines = written.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  return { lines, rowCount, asked, error };
}

export const small = (n: number, depth: 1 | 2, items: (i: number) => unknown[]): string[] =>
  Array.from({ length: n }, (_, i) => depth === 1 ? `"k${i}":${JSON.stringify(items(i))}` : `"k${i}":{"v":${JSON.stringify(items(i))}}`);

/** A body built row by row: its text and where each row of each array (one or two levels down) ends. */
export interface Built { text: string; ends: { path: string[]; end: number; row: unknown }[] }

/** The rows the rule (`by`: by default that of no style) picks among the rows fully received by byte `cut`. */
export function oracleAt(built: Built, cut: number, by: RowsRule = rule): unknown[] {
  const partial: Record<string, unknown> = {};
  for (const e of built.ends) {
    // Arrays at any depth (an items= path): the objects on the way made as JSON.parse would.
    let holder = partial;
    for (const key of e.path.slice(0, -1)) holder = (holder[key] ??= {}) as Record<string, unknown>;
    const key = e.path[e.path.length - 1]!;
    holder[key] ??= [];
    if (e.end <= cut) (holder[key] as unknown[]).push(e.row);
  }
  const found = by.find(partial);
  return found.ok ? [...found.rows] : [];
}

/** A page of a sink kept in memory: what is kept, and how many were written then dropped. */
export function pages(): { tentative: () => HeldPage; kept: string[]; dropped: number } {
  const state = { kept: [] as string[], dropped: 0, tentative: (): HeldPage => {
    let held: string[] = [];
    return {
      writeNdjson: (b) => { held.push(Buffer.concat(b).toString('utf8')); return Promise.resolve(); },
      writeRows: () => Promise.reject(new Error('not used')),
      keep: () => { state.kept.push(...held); held = []; return Promise.resolve(); },
      drop: () => { state.dropped++; held = []; return Promise.resolve(); },
    };
  } };
  return state;
}

/** A sink that keeps every row written as its NDJSON line. */
export function collectingSink(): RowSink & { lines: string[] } {
  const lines: string[] = [];
  return {
    format: 'ndjson', lines,
    writePage(page) {
      for (const r of page) lines.push(JSON.stringify(r));
      return Promise.resolve();
    },
    writeNdjsonPage(buffers) {
      const text = Buffer.concat(buffers).toString('utf8');
      for (const line of text.split('\n')) if (line !== '') lines.push(line);
      return Promise.resolve();
    },
    checkpoint: () => undefined,
    close: () => Promise.resolve(),
  };
}
