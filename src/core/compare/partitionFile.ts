// One side's records spilled to partition files by key, as bytes, and a partition read back as an index
// of its records grouped by key. Rule: a record goes to the partition its key's hash names (FNV-1a of
// the key's UTF-8 bytes, the same on both sides), with its mark, its sequence number, its key and its
// text as received; nothing is decoded, escaped nor parsed on the way.
// Entry layout: mark (1), key kind `k`|`c` (1), hash (4), seq (8), key length (4), text length (4),
// then the key (without its `k:`/`c:`) and the text; a record marked `D` has, instead of its text,
// where its text is in its side's input (offset 8, length 4): it is read only if it is needed.
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { KeyOrder } from './keyOrder';

const FLUSH_AT = 256 * 1024;
const HEADER = 22;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * `s` not shaped yet, `p` shaped, `d` shaped and differing from the record at its position on the other
 * side, `D` the same with its text left in its input.
 */
export const MARK = { unshaped: 115, shaped: 112, differs: 100, differsInInput: 68 } as const;

function fnv(hash: number, buf: Uint8Array, s: number, e: number): number {
  for (let i = s; i < e; i++) hash = Math.imul(hash ^ buf[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** Little-endian 32 bits (no bounds check, as Buffer's own readers make). */
function put32(out: Uint8Array, at: number, value: number): void {
  out[at] = value;
  out[at + 1] = value >>> 8;
  out[at + 2] = value >>> 16;
  out[at + 3] = value >>> 24;
}

function get32(buf: Uint8Array, at: number): number {
  return buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24);
}

export class PartitionWriter {
  private readonly files: number[] = [];
  private readonly buffers: Buffer[];
  private readonly sizes: number[];
  private scratch = Buffer.allocUnsafe(4096);
  private readonly place = Buffer.allocUnsafe(12);
  /** Records written (the sequence number of the next, where the input has no lines). */
  count = 0;
  /** Whether the keys written, and those of the pairs held back (pendingPairs.ts), kept increasing. */
  readonly order = new KeyOrder();

  constructor(prefix: string, private readonly partitions: number, private readonly signal?: AbortSignal) {
    this.buffers = Array.from({ length: partitions }, () => Buffer.allocUnsafe(FLUSH_AT));
    this.sizes = new Array<number>(partitions).fill(0);
    for (let p = 0; p < partitions; p++) this.files.push(openSync(`${prefix}${p}`, 'w'));
  }

  /** A record whose key is `kind:` and the bytes `keyBuf[ks, ke)`, its text `textBuf[ts, te)`. */
  write(mark: number, kind: number, keyBuf: Uint8Array, ks: number, ke: number, seq: number, textBuf: Buffer, ts: number, te: number): void {
    if ((this.count & 0xfff) === 0) this.signal?.throwIfAborted();
    this.order.note(kind, keyBuf, ks, ke);
    this.count++;
    const hash = fnv(Math.imul(FNV_OFFSET ^ kind, FNV_PRIME), keyBuf, ks, ke);
    const p = hash % this.partitions;
    const size = HEADER + (ke - ks) + (te - ts);
    if (this.sizes[p]! + size > FLUSH_AT) this.flush(p);
    const out = size > FLUSH_AT ? Buffer.allocUnsafe(size) : this.buffers[p]!;
    let at = out === this.buffers[p] ? this.sizes[p]! : 0;
    out[at] = mark;
    out[at + 1] = kind;
    put32(out, at + 2, hash);
    put32(out, at + 6, seq);
    put32(out, at + 10, Math.floor(seq / 0x100000000));
    put32(out, at + 14, ke - ks);
    put32(out, at + 18, te - ts);
    at += HEADER;
    for (let i = ks; i < ke; i++) out[at++] = keyBuf[i]!;
    // A few bytes are copied here; more natively (Buffer's copy makes a view each call).
    if (te - ts <= 32) for (let i = ts; i < te; i++) out[at++] = textBuf[i]!;
    else at += textBuf.copy(out, at, ts, te);
    if (out === this.buffers[p]) this.sizes[p] = at;
    else writeSync(this.files[p]!, out, 0, at);
  }

  /** A record that differs from the one at its position (`D`), its text left at `offset`, `length` in its input. */
  writeDiffering(keyBuf: Uint8Array, ks: number, ke: number, seq: number, offset: number, length: number): void {
    const place = this.place;
    place.writeUInt32LE(offset >>> 0, 0);
    place.writeUInt32LE(Math.floor(offset / 0x100000000), 4);
    place.writeUInt32LE(length, 8);
    this.write(MARK.differsInInput, 107 /* k */, keyBuf, ks, ke, seq, place, 0, 12);
  }

  /** A record given as strings: its key (`k:…` or `c:…`) and its text. */
  writeText(mark: number, key: string, seq: number, text: string): void {
    const need = (key.length + text.length) * 3;
    if (need > this.scratch.length) this.scratch = Buffer.allocUnsafe(need * 2);
    const keyEnd = this.scratch.write(key, 0);
    const textEnd = keyEnd + this.scratch.write(text, keyEnd);
    this.write(mark, key.charCodeAt(0), this.scratch, 2, keyEnd, seq, this.scratch, keyEnd, textEnd);
  }

  private flush(p: number): void {
    if (this.sizes[p] === 0) return;
    writeSync(this.files[p]!, this.buffers[p]!, 0, this.sizes[p]);
    this.sizes[p] = 0;
  }

  close(): void {
    try {
      for (let p = 0; p < this.partitions; p++) this.flush(p);
    } finally {
      for (const fd of this.files.splice(0)) closeSync(fd);
    }
  }
}

/**
 * A partition file read whole, its records indexed: by key into groups (records of one key, in the
 * order they came), each group found by its first record. Arrays are reused from one partition to the next.
 */
export class PartitionIndex {
  buf = Buffer.allocUnsafe(0);
  count = 0;
  keyStart: Int32Array = new Int32Array(0);
  keyEnd: Int32Array = new Int32Array(0);
  textEnd: Int32Array = new Int32Array(0);
  seq: Float64Array = new Float64Array(0);
  hash: Int32Array = new Int32Array(0);
  /** The next record of the same key (-1: the last); for a group's first record, the group's size and last. */
  nextOfKey: Int32Array = new Int32Array(0);
  groupSize: Int32Array = new Int32Array(0);
  private groupLast: Int32Array = new Int32Array(0);
  /** Groups in the order their keys first came (their first records). */
  groups: Int32Array = new Int32Array(0);
  groupCount = 0;
  private table: Int32Array = new Int32Array(0);
  private bits = 0;
  private place = Buffer.allocUnsafe(0);

  /** `input`: the side's input file, open, where the texts of records marked `D` are. */
  constructor(private readonly input?: number) {}

  /** Record `i`'s text, decoded (read from the input for a record marked `D`). */
  text(i: number): string {
    const start = this.keyEnd[i]!;
    if (this.mark(i) !== MARK.differsInInput) return this.buf.toString('utf8', start, this.textEnd[i]);
    const offset = this.buf.readUInt32LE(start) + this.buf.readUInt32LE(start + 4) * 0x100000000;
    const length = this.buf.readUInt32LE(start + 8);
    if (this.place.length < length) this.place = Buffer.allocUnsafe(length);
    if (this.input === undefined || readSync(this.input, this.place, 0, length, offset) !== length) throw new Error('compare: a record\'s text is no longer in its input');
    return this.place.toString('utf8', 0, length);
  }

  load(path: string): void {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (this.buf.length < size) this.buf = Buffer.allocUnsafe(size);
      for (let at = 0; at < size;) {
        const read = readSync(fd, this.buf, at, size - at, null);
        if (read === 0) break;
        at += read;
      }
      this.index(size);
    } finally {
      closeSync(fd);
    }
  }

  mark(i: number): number {
    return this.buf[this.keyStart[i]! - HEADER]!;
  }

  kind(i: number): number {
    return this.buf[this.keyStart[i]! - HEADER + 1]!;
  }

  /** The group of the key of `other`'s record `j`, or -1. */
  find(other: PartitionIndex, j: number): number {
    const mask = this.table.length - 1;
    for (let slot = Math.imul(other.hash[j]!, 0x9e3779b1) >>> (32 - this.bits); ; slot = (slot + 1) & mask) {
      const head = this.table[slot]!;
      if (head < 0 || (this.hash[head] === other.hash[j] && this.sameKey(head, other, j))) return head;
    }
  }

  private sameKey(i: number, other: PartitionIndex, j: number): boolean {
    const s = this.keyStart[i]!;
    const os = other.keyStart[j]!;
    const length = this.keyEnd[i]! - s;
    if (other.keyEnd[j]! - os !== length || this.kind(i) !== other.kind(j)) return false;
    for (let k = 0; k < length; k++) if (this.buf[s + k] !== other.buf[os + k]) return false;
    return true;
  }

  private index(size: number): void {
    this.count = 0;
    for (let at = 0; at < size; this.count++) {
      if (this.count === this.keyStart.length) this.grow();
      const keyLength = get32(this.buf, at + 14);
      const textLength = get32(this.buf, at + 18);
      this.hash[this.count] = get32(this.buf, at + 2);
      this.seq[this.count] = (get32(this.buf, at + 6) >>> 0) + get32(this.buf, at + 10) * 0x100000000;
      this.keyStart[this.count] = at + HEADER;
      this.keyEnd[this.count] = at + HEADER + keyLength;
      at += HEADER + keyLength + textLength;
      this.textEnd[this.count] = at;
    }
    this.group();
  }

  private group(): void {
    let bits = 4;
    while (1 << bits < this.count * 2) bits++;
    if (this.table.length !== 1 << bits) this.table = new Int32Array(1 << bits);
    this.table.fill(-1);
    this.bits = bits;
    this.groupCount = 0;
    const mask = this.table.length - 1;
    for (let i = 0; i < this.count; i++) {
      this.nextOfKey[i] = -1;
      let slot = Math.imul(this.hash[i]!, 0x9e3779b1) >>> (32 - bits);
      for (; ; slot = (slot + 1) & mask) {
        const head = this.table[slot]!;
        if (head < 0) {
          this.table[slot] = i;
          this.groupSize[i] = 1;
          this.groupLast[i] = i;
          this.groups[this.groupCount++] = i;
          break;
        }
        if (this.hash[head] === this.hash[i] && this.sameKey(head, this, i)) {
          this.nextOfKey[this.groupLast[head]!] = i;
          this.groupLast[head] = i;
          this.groupSize[head]!++;
          break;
        }
      }
    }
  }

  private grow(): void {
    const size = Math.max(1024, this.keyStart.length * 2);
    const ints = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.keyStart = ints(this.keyStart);
    this.keyEnd = ints(this.keyEnd);
    this.textEnd = ints(this.textEnd);
    this.hash = ints(this.hash);
    this.nextOfKey = ints(this.nextOfKey);
    this.groupSize = ints(this.groupSize);
    this.groupLast = ints(this.groupLast);
    this.groups = ints(this.groups);
    const seq = new Float64Array(size);
    seq.set(this.seq);
    this.seq = seq;
  }
}
