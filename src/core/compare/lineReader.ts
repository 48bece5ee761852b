// The lines of a file as byte ranges of one reused buffer, a chunk read at a time: no string is made for
// a line. A line is `buf[start, end)` without its line end (`\n` or `\r\n`) and stays valid until the
// next fill(). A line longer than the buffer grows it. It also knows where a line starts in the file,
// and whether a line holds a backslash, asking the bytes read once a chunk, not once a line. A file a
// walk still writes (growingFile.ts) is read up to its kept bytes, waiting for more until it ends.
import { open, type FileHandle } from 'node:fs/promises';
import { GrowingFileGaveUp, type GrowingFile } from './growingFile';

/** A growing file to read as it grows, and the length past which the reader gives up. */
export interface GrowingRead {
  readonly file: GrowingFile;
  readonly maxBytes: number;
}

const CHUNK = 1 << 20;

export class LineReader {
  buf = Buffer.allocUnsafe(CHUNK);
  start = 0;
  end = 0;
  private pos = 0;
  private filled = 0;
  private ended = false;
  /** The file offset of buf[0]. */
  private base = 0;
  /** How many times the buffer was filled: a place found before is stale after. */
  private chunk = 0;
  private readonly backslash = new NextByte(92);

  private constructor(private readonly file: FileHandle, private readonly growing?: GrowingRead) {}

  static async open(path: string): Promise<LineReader> {
    return new LineReader(await open(path, 'r'));
  }

  /** A file still being written, opened once it has bytes (or has ended). */
  static async openGrowing(growing: GrowingRead): Promise<LineReader> {
    await growing.file.started();
    if (growing.file.rewound) throw new GrowingFileGaveUp('compare: the rows file was given up');
    return new LineReader(await open(growing.file.path, 'r'), growing);
  }

  /** The next line from what was read (true), or false when more must be read (or the file is done). */
  next(): boolean {
    if (this.pos >= this.filled) return false;
    let nl = this.buf.indexOf(10, this.pos);
    if (nl < 0 || nl >= this.filled) {
      if (!this.ended) return false;
      nl = this.filled; // the last line, without a line end
    }
    this.start = this.pos;
    this.end = nl > this.start && this.buf[nl - 1] === 13 ? nl - 1 : nl;
    this.pos = nl + 1;
    return true;
  }

  /** What was read and not yet given as lines. */
  get unread(): Uint8Array {
    return this.buf.subarray(this.pos, this.filled);
  }

  /** Where the current line starts in the file. */
  get offset(): number {
    return this.base + this.start;
  }

  /** Whether `buf[s, e)` (a part of what was read) holds no backslash. */
  noBackslash(s: number, e: number): boolean {
    return this.nextOf(this.backslash, s) >= e;
  }

  /**
   * Where `finder`'s byte next is at or after `from` in what was read (`filled` when nowhere). Asked
   * forward, line after line, it searches each stretch of the chunk once (memchr), not once a line.
   */
  nextOf(finder: NextByte, from: number): number {
    if (finder.chunk !== this.chunk || from < finder.from || from > finder.at) {
      const at = this.buf.indexOf(finder.byte, from);
      finder.at = at < 0 || at >= this.filled ? this.filled : at;
      finder.from = from;
      finder.chunk = this.chunk;
    }
    return finder.at;
  }

  /** Reads on; false when the file is done (and every line was given). */
  async fill(): Promise<boolean> {
    if (this.ended) return false;
    this.chunk++;
    if (this.pos > 0) {
      this.buf.copy(this.buf, 0, this.pos, this.filled);
      this.filled -= this.pos;
      this.base += this.pos;
      this.pos = 0;
    }
    if (this.filled === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.filled);
      this.buf = bigger;
    }
    const room = this.growing ? await this.keptRoom(this.buf.length - this.filled) : this.buf.length - this.filled;
    const { bytesRead } = room === 0 ? { bytesRead: 0 } : await this.file.read(this.buf, this.filled, room, null);
    this.filled += bytesRead;
    if (bytesRead === 0) this.ended = true;
    return true;
  }

  /** How much of `room` a growing file has kept past what was read, waiting for some until it ends (0: ended). */
  private async keptRoom(room: number): Promise<number> {
    const { file, maxBytes } = this.growing!;
    const at = this.base + this.filled;
    while (file.kept <= at && !file.ended) await file.more();
    if (file.rewound || file.kept < at) throw new GrowingFileGaveUp('compare: the rows file changed under its reader');
    if (file.kept > maxBytes) throw new GrowingFileGaveUp('compare: the rows file outgrew its partitions');
    return Math.min(room, file.kept - at);
  }

  /** The next line, reading on as needed; false at the end of the file. */
  async nextLine(): Promise<boolean> {
    while (!this.next()) if (!(await this.fill())) return false;
    return true;
  }

  async close(): Promise<void> {
    await this.file.close();
  }
}

/** One byte value's next place in a LineReader's buffer (LineReader.nextOf keeps it). */
export class NextByte {
  at = -1;
  from = -1;
  chunk = -1;

  constructor(readonly byte: number) {}
}
