// Pairs of one key at one position that surely differ, held back from the partitions in one file of
// their own until the inputs' ends tell whether both sides hold each key once (keyOrder.ts). Rule: when
// they do, each such pair is changed (no other record of its key exists to pair with either record);
// when not, every held pair goes to its sides' partitions as it would have gone at once (marked
// differing, its texts left in the inputs), later than the records after it: the counts do not depend
// on the order of a key's records, and pairs are held only when no difference is reported. Why: a comparison whose records mostly differ at their
// positions spent a fifth of its time writing, reading back and grouping them (bench/compare.ts).
// Entry: key length (4), key, seq (8), then per side input offset (8) and length (4).
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import type { PartitionWriter } from './partitionFile';

const FLUSH_AT = 256 * 1024;

export class PendingPairs {
  private fd = -1;
  private buf = Buffer.allocUnsafe(FLUSH_AT);
  private size = 0;
  /** Pairs held. */
  count = 0;

  constructor(private readonly path: string) {}

  /** The pair of key `keyBuf[ks, ke)` at `seq`: where each side's text is in its input (offset, length). */
  hold(keyBuf: Uint8Array, ks: number, ke: number, seq: number, offsetA: number, lengthA: number, offsetB: number, lengthB: number): void {
    const need = 4 + (ke - ks) + 8 + 24;
    if (this.size + need > this.buf.length) this.flush();
    if (need > this.buf.length) this.buf = Buffer.allocUnsafe(need);
    const out = this.buf;
    let at = this.size;
    at = out.writeUInt32LE(ke - ks, at);
    for (let k = ks; k < ke; k++) out[at++] = keyBuf[k]!;
    at = out.writeDoubleLE(seq, at);
    at = out.writeDoubleLE(offsetA, at);
    at = out.writeUInt32LE(lengthA, at);
    at = out.writeDoubleLE(offsetB, at);
    at = out.writeUInt32LE(lengthB, at);
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
        const size = 4 + keyLength + 32;
        if (at + size > have) break;
        const ks = at + 4;
        const ke = ks + keyLength;
        const seq = chunk.readDoubleLE(ke);
        a.writeDiffering(chunk, ks, ke, seq, chunk.readDoubleLE(ke + 8), chunk.readUInt32LE(ke + 16));
        b.writeDiffering(chunk, ks, ke, seq, chunk.readDoubleLE(ke + 20), chunk.readUInt32LE(ke + 28));
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
