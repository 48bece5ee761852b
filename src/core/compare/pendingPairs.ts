// Pairs of one key at one position that surely differ, held back from the partitions in one file of
// their own until the inputs' ends tell whether both sides hold each key once (keyOrder.ts). Rule: when
// they do, each such pair is changed (no other record of its key exists to pair with either record);
// when not, every held pair goes to its sides' partitions as it would have gone at once (marked
// differing, its texts left in the inputs), later than the records after it: the counts do not depend
// on the order of a key's records, and pairs are held only when no difference is reported. Why: a comparison whose records mostly differ at their
// positions spent a fifth of its time writing, reading back and grouping them (bench/compare.ts).
// Entry: key length (4), key, then seq and per side input offset and length (8 each).
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { PartitionWriter } from './partitionFile';

const FLUSH_AT = 256 * 1024;
/** After the key: seq, then each side's offset and length, 8 bytes each (two little-endian halves). */
const ENTRY_TAIL = 40;

function put32(out: Uint8Array, at: number, value: number): void {
  out[at] = value;
  out[at + 1] = value >>> 8;
  out[at + 2] = value >>> 16;
  out[at + 3] = value >>> 24;
}

export class PendingPairs {
  private fd = -1;
  private buf = Buffer.allocUnsafe(FLUSH_AT);
  private size = 0;
  /** Pairs held. */
  count = 0;

  constructor(private readonly path: string) {}

  /** The pair of key `keyBuf[ks, ke)` at `seq`: where each side's text is in its input (offset, length). */
  hold(keyBuf: Uint8Array, ks: number, ke: number, seq: number, offsetA: number, lengthA: number, offsetB: number, lengthB: number): void {
    const need = 4 + (ke - ks) + ENTRY_TAIL;
    if (this.size + need > this.buf.length) this.flush();
    if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need);
    const out = this.buf;
    let at = this.size;
    // Byte by byte: Buffer's writers cost more than the rest of a pair's holding.
    put32(out, at, ke - ks);
    at += 4;
    for (let k = ks; k < ke; k++) out[at++] = keyBuf[k]!;
    for (const value of [seq, offsetA, lengthA, offsetB, lengthB]) {
      put32(out, at, value >>> 0);
      put32(out, at + 4, Math.floor(value / 0x100000000));
      at += 8;
    }
    this.size = at;
    this.count++;
  }

  /** Every held pair to its sides' partitions, in the order they were held. */
  release(a: PartitionWriter, b: PartitionWriter): void {
    this.count = 0;
    this.flush();
    if (this.fd < 0) return;
    let chunk = Buffer.allocUnsafe(FLUSH_AT);
    let [have, offset] = [0, 0];
    for (;;) {
      if (have === chunk.length) chunk = Buffer.concat([chunk, Buffer.allocUnsafe(chunk.length)]);
      const read = readSync(this.fd, chunk, have, chunk.length - have, offset);
      offset += read;
      have += read;
      let at = 0;
      while (at + 4 <= have) {
        const keyLength = chunk.readUInt32LE(at);
        const size = 4 + keyLength + ENTRY_TAIL;
        if (at + size > have) break;
        const ks = at + 4;
        const ke = ks + keyLength;
        const value = (n: number): number => chunk.readUInt32LE(ke + n * 8) + chunk.readUInt32LE(ke + n * 8 + 4) * 0x100000000;
        a.writeDiffering(chunk, ks, ke, value(0), value(1), value(2));
        b.writeDiffering(chunk, ks, ke, value(0), value(3), value(4));
        at += size;
      }
      chunk.copy(chunk, 0, at, have);
      have -= at;
      if (read === 0) break;
    }
    this.close();
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private flush(): void {
    if (this.size === 0) return;
    if (this.fd < 0) this.fd = openSync(this.path, 'w+');
    writeSync(this.fd, this.buf, 0, this.size);
    this.size = 0;
  }
}
