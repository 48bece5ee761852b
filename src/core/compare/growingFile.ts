// A rows file that a walk is still writing, read while it grows (compareSides.ts: side B compared as
// its walk goes). Rule: only bytes a sink has kept are read (sink.ts: a page is kept whole and never
// rewritten after; a page refused is cut off past them); the file's end is its length once the walk is
// over and its sink closed (end()). A reader that finds the file shorter than what it read, or longer
// than its limit, gives up (GrowingFileGaveUp): its caller compares the finished file the usual way.
// Why: side B's rows compared while its walk waits on the service hide most of the comparison's time
// (bench/compare.ts).
import { stat } from 'node:fs/promises';
import { wrappedSink, type HeldPage, type RowSink } from '../export/sink';

/** The bytes read so far are no longer the file's, or the file outgrew the reader's limit. */
export class GrowingFileGaveUp extends Error {}

export class GrowingFile {
  private file: string | undefined;
  /** Bytes kept so far (the final length once ended). */
  kept = 0;
  ended = false;
  /** The file ended shorter than bytes it had kept (then nothing read from it holds). */
  rewound = false;
  private waiting: (() => void)[] = [];
  private readonly listeners: (() => void)[] = [];

  /** Its path, known once its writer opened it (at()). */
  get path(): string {
    if (this.file === undefined) throw new Error('compare: the rows file is not open yet');
    return this.file;
  }

  /** Whether its writer opened `path`. */
  isAt(path: string): boolean {
    return this.file === path;
  }

  /** The writer's file: from now on its kept bytes are said by `keeping`'s sink. */
  at(path: string): void {
    this.file = path;
    this.wake();
  }

  /** The sink's kept length now. */
  grow(bytes: number): void {
    if (bytes <= this.kept) return;
    this.kept = bytes;
    this.wake();
  }

  /** The writer is done and its file closed: the file's length is its end (a missing file ends empty). */
  async end(): Promise<void> {
    if (this.ended) return;
    this.endAt(this.file === undefined ? 0 : await stat(this.file).then((s) => s.size, () => 0));
  }

  /** The writer is done: the file's length is `size`. */
  endAt(size: number): void {
    if (this.ended) return;
    if (size < this.kept) this.rewound = true;
    this.kept = size;
    this.ended = true;
    this.wake();
  }

  /** `listener` told of every change from now on (a copy of this file elsewhere: rowsWorker.ts). */
  watch(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Nothing more will be written nor is wanted (the walk failed, or its rows are not compared): readers give up. */
  cancel(): void {
    this.rewound = true;
    this.ended = true;
    this.wake();
  }

  /** Resolves once more is kept, or the file ended. */
  more(): Promise<void> {
    return this.ended ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves once its writer named its file (at()), or the file ended. */
  async named(): Promise<void> {
    while (!this.ended && this.file === undefined) await this.more();
  }

  /** Resolves once there is a file to open (something kept), or the file ended. */
  async started(): Promise<void> {
    while (!this.ended && this.kept === 0) await this.more();
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
    for (const listener of this.listeners) listener();
  }
}

/** `inner`, telling `rows` its kept length after each write that keeps bytes (`path`: its file). */
export function keepingSink(inner: RowSink, rows: GrowingFile, path: string): RowSink {
  rows.at(path);
  const kept = <T>(done: Promise<T>): Promise<T> => done.then((value) => {
    rows.grow(inner.checkpoint()?.bytes ?? 0);
    return value;
  });
  return wrappedSink(inner, {
    writePage: (write) => (page) => kept(write(page)),
    writeRowsPart: (write) => (part) => kept(write(part)),
    endPage: (end) => () => kept(end()),
    writeNdjsonPage: (write) => (lines, count, keys) => kept(write(lines, count, keys)),
    writeLongRow: (write) => (row, keys) => kept(write(row, keys)),
    openPage: (open) => (): HeldPage => {
      const page = open();
      return {
        writeNdjson: (l, c, k) => page.writeNdjson(l, c, k), writeRows: (r) => page.writeRows(r), keep: () => kept(page.keep()), drop: () => page.drop(),
        ...(page.writeLongRow ? { writeLongRow: page.writeLongRow.bind(page) } : {}),
      };
    },
  });
}
