// Bytes of one NDJSON page, built without one huge buffer.

/** Blocks given back once written (recycleBlocks), by size, for any ByteBlocks to fill again. */
const SPARE = new Map<number, Buffer[]>();
/** The memory of every block a ByteBlocks made (a block owns its whole ArrayBuffer: allocUnsafeSlow). */
const BLOCKS = new WeakSet<ArrayBufferLike>();
/** Spare blocks kept at most, of one size: a walk's page (16 MB), or a few batches of a single response. */
const MAX_SPARE = 24;

/**
 * Gives back pieces that a ByteBlocks handed out, once nobody reads them any more (they were written)
 * and their ByteBlocks takes no more bytes: their blocks hold the next rows instead of new memory
 * (a walk's next page fills the blocks of the last one). Pieces of other memory are ignored.
 */
export function recycleBlocks(pieces: readonly Buffer[]): void {
  for (const piece of pieces) {
    const memory = piece.buffer;
    if (!BLOCKS.has(memory)) continue;
    const spare = SPARE.get(memory.byteLength) ?? [];
    SPARE.set(memory.byteLength, spare);
    if (spare.length < MAX_SPARE && !spare.some((b) => b.buffer === memory)) spare.push(Buffer.from(memory, 0, memory.byteLength));
  }
}

/**
 * The NDJSON bytes of one page: copied rows go into fixed-size blocks (no huge reallocation), rows
 * taken as they are from the body's own chunks are kept as slices (no copy).
 */
export class ByteBlocks {
  private readonly segments: Buffer[] = [];
  private current: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private sealed = 0;
  length = 0;

  constructor(private readonly blockSize = 1 << 20) {}

  append(source: Buffer, start: number, end: number): void {
    let from = start;
    while (from < end) {
      if (this.used === this.current.length) this.grow();
      const n = Math.min(end - from, this.current.length - this.used);
      source.copy(this.current, this.used, from, from + n);
      this.used += n;
      from += n;
      this.length += n;
    }
  }

  /**
   * Appends source[start, end) with the bytes at the given source positions (ascending, `count` of
   * them, each in the range) replaced by `byte`: a run of rows whose commas become line breaks.
   */
  appendRun(source: Buffer, start: number, end: number, positions: readonly number[], count: number, byte: number): void {
    let from = start;
    let k = 0;
    while (from < end) {
      if (this.used === this.current.length) this.grow();
      const n = Math.min(end - from, this.current.length - this.used);
      source.copy(this.current, this.used, from, from + n);
      for (; k < count && positions[k]! < from + n; k++) this.current[this.used + positions[k]! - from] = byte;
      this.used += n;
      from += n;
      this.length += n;
    }
  }

  appendByte(byte: number): void {
    if (this.used === this.current.length) this.grow();
    this.current[this.used++] = byte;
    this.length++;
  }

  /** Keeps `slice` by reference; the caller must not change it afterwards. */
  pushSlice(slice: Buffer): void {
    this.seal();
    this.segments.push(slice);
    this.length += slice.length;
  }

  /** The bytes written, in order, as buffers to hand to writev. */
  buffers(): Buffer[] {
    this.seal();
    return [...this.segments];
  }

  /** The bytes written so far, handed over (to a sink); the blocks start empty again. */
  take(): Buffer[] {
    const taken = this.buffers();
    this.segments.length = 0;
    this.current = Buffer.allocUnsafe(0);
    this.used = 0;
    this.sealed = 0;
    this.length = 0;
    return taken;
  }

  /**
   * The bytes written so far, copied into one buffer of their own size; the blocks are kept to be written
   * again (for many small outputs in a row: a lane of a body of 200 000 small arrays each).
   */
  copyOut(): Buffer {
    this.seal();
    const copy = Buffer.concat(this.segments, this.length);
    this.segments.length = 0;
    this.used = 0;
    this.sealed = 0;
    this.length = 0;
    return copy;
  }

  private seal(): void {
    if (this.used > this.sealed) this.segments.push(this.current.subarray(this.sealed, this.used));
    this.sealed = this.used;
  }

  private grow(): void {
    this.seal();
    // allocUnsafeSlow: a block owns its whole ArrayBuffer (never a slice of the shared pool), so it can be recycled.
    this.current = SPARE.get(this.blockSize)?.pop() ?? Buffer.allocUnsafeSlow(this.blockSize);
    BLOCKS.add(this.current.buffer);
    this.used = 0;
    this.sealed = 0;
  }
}
