// Bytes of one NDJSON page, built without one huge buffer.
/**
 * The NDJSON bytes of one page: copied rows go into fixed-size blocks (no huge reallocation), rows
 * taken as they are from the body's own chunks are kept as slices (no copy).
 */
/** Recycled blocks kept at most (a batch being written and one being filled need a few each). */
const MAX_SPARE = 8;

export class ByteBlocks {
  private readonly segments: Buffer[] = [];
  private current: Buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private sealed = 0;
  /** Blocks given back by recycle(), by the memory they own (each block owns all of its ArrayBuffer). */
  private readonly spare: Buffer[] = [];
  private readonly own = new WeakSet<ArrayBufferLike>();
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

  private seal(): void {
    if (this.used > this.sealed) this.segments.push(this.current.subarray(this.sealed, this.used));
    this.sealed = this.used;
  }

  /**
   * Gives back pieces that take() handed out, once nobody reads them any more (they were written): their
   * blocks hold the next rows instead of new memory being allocated (a 1 GB body need not allocate 1 GB).
   */
  recycle(pieces: readonly Buffer[]): void {
    for (const piece of pieces) {
      const memory = piece.buffer;
      if (this.spare.length >= MAX_SPARE || !this.own.has(memory) || memory === this.current.buffer || this.spare.some((b) => b.buffer === memory)) continue;
      this.spare.push(Buffer.from(memory, 0, this.blockSize));
    }
  }

  private grow(): void {
    this.seal();
    // allocUnsafeSlow: a block owns its whole ArrayBuffer (never a slice of the shared pool), so it can be recycled.
    this.current = this.spare.pop() ?? Buffer.allocUnsafeSlow(this.blockSize);
    this.own.add(this.current.buffer);
    this.used = 0;
    this.sealed = 0;
  }
}
