// Whether a side's keys, in the order its records go to partitions, keep increasing. Rule: keys that
// strictly increase in one total order are all distinct, so such a side holds each key once. The order:
// integers written as digits only (no sign, no leading zero: the key's canonical text) first, by length
// then digits (their numeric order); every other key after them, byte by byte. A record matched by its
// content (no key) ends the order. Why: a pair of one key at one position that surely differs is changed
// without being partitioned when both sides hold each key once (pendingPairs.ts, inStep.ts), and walks
// are mostly in key order.

const KEY_KIND = 107; // k

export class KeyOrder {
  private last = Buffer.allocUnsafe(64);
  private lastLength = -1;
  private lastDigits = false;
  /** True while every key noted so far was greater than the one before. */
  ordered = true;

  /** Notes the side's next key: kind (`k` or `c`) and its bytes `buf[s, e)`. */
  note(kind: number, buf: Uint8Array, s: number, e: number): void {
    if (!this.ordered) return;
    const digits = digitsOnly(buf, s, e);
    if (kind !== KEY_KIND || (this.lastLength >= 0 && !this.follows(digits, buf, s, e))) {
      this.ordered = false;
      return;
    }
    if (e - s > this.last.length) this.last = Buffer.allocUnsafe(Math.max(e - s, this.last.length * 2));
    for (let k = s; k < e; k++) this.last[k - s] = buf[k]!;
    this.lastLength = e - s;
    this.lastDigits = digits;
  }

  /** Whether `buf[s, e)` comes strictly after the last key. */
  private follows(digits: boolean, buf: Uint8Array, s: number, e: number): boolean {
    if (digits !== this.lastDigits) return this.lastDigits;
    const length = e - s;
    if (digits && length !== this.lastLength) return length > this.lastLength;
    const common = Math.min(length, this.lastLength);
    for (let k = 0; k < common; k++) {
      const [x, y] = [buf[s + k]!, this.last[k]!];
      if (x !== y) return x > y;
    }
    return length > this.lastLength;
  }
}

/** `0` or `[1-9][0-9]*`. */
function digitsOnly(buf: Uint8Array, s: number, e: number): boolean {
  if (s >= e || (buf[s] === 48 && e - s > 1)) return false;
  for (let k = s; k < e; k++) if (buf[k]! < 48 || buf[k]! > 57) return false;
  return true;
}
