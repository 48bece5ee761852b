// The walk's consistency checks: a server whose paging contradicts itself stops the walk before the
// doubtful page is kept. Facts of the first page (totals, page size) must hold on every later page; a
// page must not be any page kept before again (same row count and boundary rows: a fingerprint of every
// page of the walk, a few dozen bytes each, is kept), nor repeat rows of the page before (a shifted offset
// repeats rows at the seam); a next request must not be one already answered (a repeated cursor, page or
// offset). What is compared is hashes and row texts, never a request's secrets. A resumed walk knows the
// last page of the part before it only (the checkpoint holds that page's fingerprint).
import { createHash } from 'node:crypto';
import type { HttpRequest } from '../http/types';
import { excerpt } from '../text/excerpt';
import type { PageFacts, WalkCheckpoint } from './checkpoint';
import { HEAD_ROWS_HELD } from './notHeld';

export function describeRequest(request: HttpRequest): string {
  const body = request.body ? ` with body ${excerpt(request.body, 160)}` : '';
  return `${request.method.toUpperCase()} ${request.url}${body}`;
}

/** What identifies a request's page: its method, URL and body. */
function requestIdentity(request: HttpRequest): string {
  return `${request.method.toUpperCase()} ${request.url}\n${request.body ?? ''}`;
}

/** A hash of a request's identity: kept in checkpoints, so never the request itself. */
function requestKey(request: HttpRequest): string {
  return createHash('sha256').update(requestIdentity(request)).digest('base64');
}

/**
 * A page's rows as comparable text, for the overlap check between consecutive pages. A page of up to
 * WHOLE_PAGE_ROWS rows read whole compares every row; a larger one, or one streamed to the file, compares
 * its first and last BOUNDARY rows (a shifted offset repeats rows at the seam), so a 100 000-row page is
 * not held twice.
 */
export interface PageRows {
  readonly all?: ReadonlySet<string>;
  readonly head: readonly string[];
  readonly tail: ReadonlySet<string>;
}

const BOUNDARY = 64;
/** The head lines a streamed page keeps: its boundary rows, and the rows held for contract drift (notHeld.ts). */
const HEAD_LINES = Math.max(BOUNDARY, HEAD_ROWS_HELD);

/** Pages up to this many rows are compared row by row; larger ones by their boundary rows only (memory). */
const WHOLE_PAGE_ROWS = 10_000;

function wholeRows(rows: readonly unknown[]): PageRows {
  const text = (r: unknown): string | undefined => (r !== null && typeof r === 'object' ? JSON.stringify(r) : undefined);
  if (rows.length > WHOLE_PAGE_ROWS) {
    const edge = (part: readonly unknown[]): string[] => part.map(text).filter((t): t is string => t !== undefined);
    return { head: edge(rows.slice(0, BOUNDARY)), tail: new Set(edge(rows.slice(-BOUNDARY))) };
  }
  const texts = rows.map(text).filter((t): t is string => t !== undefined);
  return { all: new Set(texts), head: texts.slice(0, BOUNDARY), tail: new Set(texts.slice(-BOUNDARY)) };
}

/**
 * The first and last BOUNDARY rows of a streamed page, as its NDJSON goes by in order (in parts while
 * it is written as it arrives, then the rest): only those lines are copied, so the parts can be
 * written and reused at once. Lines are whole: every part ends with a line break.
 */
export class PageEdges {
  private readonly head: Buffer[] = [];
  private headLines = 0;
  private tail: Buffer = Buffer.alloc(0);

  see(pieces: readonly Buffer[]): this {
    for (let i = 0; i < pieces.length && this.headLines < HEAD_LINES; i++) {
      const piece = pieces[i]!;
      let end = piece.length;
      for (let at = piece.indexOf(10); at >= 0; at = piece.indexOf(10, at + 1)) {
        if (++this.headLines === HEAD_LINES) {
          end = at + 1;
          break;
        }
      }
      this.head.push(Buffer.from(piece.subarray(0, end)));
    }
    if (pieces.length > 0) this.tail = lastLines([this.tail, ...pieces], BOUNDARY);
    return this;
  }

  rows(): PageRows {
    return { head: lines(Buffer.concat(this.head)).slice(0, BOUNDARY), tail: new Set(lines(this.tail).slice(-BOUNDARY)) };
  }

  /** The page's first rows (up to HEAD_ROWS_HELD) as the server sent them, each line parsed; undefined if one is no JSON. */
  headRows(): unknown[] | undefined {
    try {
      return lines(Buffer.concat(this.head)).slice(0, HEAD_ROWS_HELD).map((line) => JSON.parse(line) as unknown);
    } catch {
      return undefined;
    }
  }
}

/** A copy of the last `count` lines of `pieces` (all of them when there are fewer). */
function lastLines(pieces: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let seen = 0;
  for (let i = pieces.length - 1; i >= 0 && seen <= count; i--) {
    const piece = pieces[i]!;
    let start = 0;
    // The line break that ends the line before the last `count` lines: the copy starts after it.
    for (let at = piece.lastIndexOf(10); at >= 0; at = at > 0 ? piece.lastIndexOf(10, at - 1) : -1) {
      if (++seen > count) {
        start = at + 1;
        break;
      }
    }
    taken.push(piece.subarray(start));
  }
  return Buffer.concat(taken.reverse());
}

/** Whole lines of a slice. */
function lines(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\n').filter(Boolean);
}

/** A page's fingerprint: its row count and boundary rows (two pages with the same one are the same page). */
function fingerprint(rowCount: number, head: readonly string[], tail: Iterable<string>): string {
  return createHash('sha256').update(`${rowCount}\n${head.join('\n')}\n${[...tail].join('\n')}`).digest('base64');
}

/** The first and last BOUNDARY rows of a page read whole, every row's text (a value too, which the overlap check leaves out). */
function edgeTexts(rows: readonly unknown[]): [string[], string[]] {
  const text = (r: unknown): string => JSON.stringify(r) ?? 'undefined';
  return [rows.slice(0, BOUNDARY).map(text), rows.slice(Math.max(BOUNDARY, rows.length - BOUNDARY)).map(text)];
}

/** How many rows of `now` were already on the page before. */
function overlap(before: PageRows, now: PageRows): number {
  if (before.all && now.all) {
    let repeated = 0;
    for (const key of now.all) if (before.all.has(key)) repeated++;
    return repeated;
  }
  return now.head.filter((key) => before.tail.has(key)).length;
}

/** Facts that must hold over the whole walk: one that vanished or changed, in words. */
export function factsProblem(before: PageFacts | undefined, now: PageFacts, page: number): string | undefined {
  if (!before) return undefined;
  for (const [name, was] of Object.entries(before)) {
    const is = now[name];
    if (is === undefined) return `${name} was ${was} on the first page but is missing on page ${page}, so the end of the walk is no longer known`;
    if (is !== was) return `${name} changed from ${was} to ${is} on page ${page}`;
  }
  return undefined;
}


/** A page about to be kept, as the checks see it: its rows' keys and fingerprint (none for a walk's only, last page). */
export interface PageSeen {
  readonly rowKeys?: PageRows;
  readonly hash?: string;
}

/** A page's keys: from the NDJSON it was streamed as (its edge rows, `edges`, every part seen), or its rows. */
export function pageSeen(rows: readonly unknown[], edges: PageEdges | undefined): PageSeen {
  const rowKeys = edges ? edges.rows() : wholeRows(rows);
  if (rows.length === 0) return { rowKeys };
  // A page read whole is printed by every row at its edges: two pages of as many values (not objects) differ.
  const [head, tail] = edges ? [rowKeys.head, rowKeys.tail] : edgeTexts(rows);
  return { rowKeys, hash: fingerprint(rows.length, head, tail) };
}

/** The characters of a fingerprint (base64 of SHA-256) kept per page: 96 bits, no two pages alike by chance. */
const PRINT = 16;

/** What the server's paging has said so far: requests whose page was kept, the last page's content. */
export class PagingMemory {
  // (Made with its first key: a walk nothing continues keeps none.)
  private served: Set<string> | undefined;
  private lastHash: string | undefined;
  private lastRows: PageRows | undefined;
  /** The fingerprint of every page kept (its first PRINT characters) and the page's number. */
  private printed: Map<string, number> | undefined;
  private pages: number;

  constructor(resume: WalkCheckpoint | undefined) {
    this.served = resume?.lastRequest ? new Set([resume.lastRequest]) : undefined;
    this.lastHash = resume?.lastPageHash;
    this.pages = resume?.pages ?? 0;
  }

  /** Why page `page` (1-based), about to be kept, repeats a page kept before (or rows of the page before); undefined when it does not. */
  repeats(page: number, seen: PageSeen): string | undefined {
    if (seen.hash !== undefined && seen.hash === this.lastHash) {
      return `page ${page} holds exactly the rows of page ${page - 1}: the server ignored the page it was asked for`;
    }
    const earlier = seen.hash === undefined ? undefined : this.printed?.get(seen.hash.slice(0, PRINT));
    if (earlier !== undefined) return `page ${page} holds exactly the rows of page ${earlier}: the server served a page of the walk again`;
    const repeated = this.lastRows && seen.rowKeys ? overlap(this.lastRows, seen.rowKeys) : 0;
    return repeated > 0 ? `${repeated} row(s) of page ${page} were already on page ${page - 1}: the pages overlap` : undefined;
  }

  /** Remembers a kept page, answered by `request` (undefined: the last page of a walk nothing continues); its request's key. */
  kept(request: HttpRequest | undefined, seen: PageSeen): string | undefined {
    const key = request ? requestKey(request) : undefined;
    if (key) (this.served ??= new Set()).add(key);
    this.pages++;
    if (seen.hash !== undefined) (this.printed ??= new Map()).set(seen.hash.slice(0, PRINT), this.pages);
    this.lastHash = seen.hash;
    this.lastRows = seen.rowKeys;
    return key;
  }

  /** True when `next` was answered already; `currentKey` is kept()'s answer for `current`. (An empty set holds no key.) */
  answered(next: HttpRequest, current: HttpRequest, currentKey: string | undefined): boolean {
    if (currentKey) return this.served!.has(requestKey(next));
    return requestIdentity(next) === requestIdentity(current) || (this.served !== undefined && this.served.has(requestKey(next)));
  }
}
