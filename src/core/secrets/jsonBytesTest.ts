// Whether NDJSON rows, read piece by piece, may hold anything the Redactor's row rule would change, told
// from their bytes without decoding them (redactingSink's fast path; a row too long to hold, read back
// from its spill): a known secret value or a word of a shape (searched at memchr speed by its rarest
// byte, across each seam too), an escape that can hide one, or a shape shapeBytes.ts finds. It may say
// yes where nothing changes (the rows are parsed then), never no where something would.
import { byteCounts, containsBytes, rarestByte } from '../text/byteSearch';
import { mayHoldShapeBytes, SEAM_LOOK_BACK } from './shapeBytes';

export class JsonBytesTest {
  /** The pieces before the next one, as far back as a string cut by its seam is read (SEAM_LOOK_BACK). */
  private readonly recent: Buffer[] = [];
  private recentBytes = 0;
  /** `recent[0]` begins where the rows begin (no piece before it was let go). */
  private startKnown = true;
  /** Each value's rarest byte in the first piece (where its search probes). */
  private probes: number[] | undefined;
  private readonly longest: number;
  /** The last `longest - 1` bytes pushed (of one piece or several). */
  private tail: Buffer = Buffer.alloc(0);

  /**
   * @param known the values searched for (known secrets' forms and the shapes' words), as bytes
   * @param markers escapes that can hide one of them
   */
  constructor(private readonly known: readonly Buffer[], private readonly markers: readonly Buffer[]) {
    this.longest = Math.max(1, ...markers.map((m) => m.length), ...known.map((v) => v.length));
  }

  /** The next piece (in order; a row may be split between pieces): true when the bytes so far may need redaction. */
  push(piece: Buffer): boolean {
    if (piece.length === 0) return false;
    this.probes ??= this.known.map((value) => rarestByte(value, byteCounts([piece])));
    if (this.mayHide(piece)) return true;
    // A value cut by the seam (over any number of short pieces): the last bytes before it, and this piece's first.
    if (this.tail.length > 0 && this.mayHide(Buffer.concat([this.tail, piece.subarray(0, this.longest - 1)]))) return true;
    const keep = this.longest - 1;
    this.tail = piece.length >= keep ? piece.subarray(piece.length - keep) : Buffer.concat([this.tail, piece]).subarray(-keep);
    this.recent.push(piece);
    this.recentBytes += piece.length;
    if (mayHoldShapeBytes(this.recent, this.recent.length - 1, this.startKnown)) return true;
    while (this.recent.length > 1 && this.recentBytes - this.recent[0]!.length >= SEAM_LOOK_BACK) {
      this.recentBytes -= this.recent.shift()!.length;
      this.startKnown = false;
    }
    return false;
  }

  private mayHide(bytes: Buffer): boolean {
    const probes = this.probes!;
    return this.markers.some((marker) => bytes.includes(marker)) || this.known.some((value, i) => containsBytes(bytes, value, probes[i]!));
  }
}
