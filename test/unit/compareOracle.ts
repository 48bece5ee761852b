// The record comparison's brute-force oracle and its generated data, shared by the oracle tests
// (compareRecords.test.ts, compareRecordBytes.test.ts): random records and keys, records moved to other
// positions (pages), duplicate keys, records without a key, dates and request ids that differ on most records.
import { contentOf, recordKey, type RecordRules } from '../../src/core/compare/records';
import { mulberry32 } from '../../src/sandbox/shared/prng';

export const prng = (seed: number): (() => number) => mulberry32(seed);

export type Rec = Record<string, unknown>;

/**
 * Side A: records with keys (some repeated, some absent); side B: A moved, changed, cut, added to.
 * `moves`: 'all' shuffles B; 'few' swaps a few records (most stay where they were, some with the same text).
 */
export function generate(seed: number, n: number, moves: 'all' | 'few' = 'all'): { a: Rec[]; b: Rec[] } {
  const r = prng(seed);
  const int = (max: number): number => Math.floor(r() * max);
  const volatile = (): Rec => ({ updatedAt: new Date(Date.UTC(2026, 0, 1) + int(1e9)).toISOString(), requestId: `${int(1e6)}` });
  const record = (): Rec => {
    const rec: Rec = { name: ['ann', 'bob', 'cy', 'di'][int(4)], amount: int(5), tags: int(3) === 0 ? [] : [int(3), 'x'], nested: { level: int(3) }, ...volatile() };
    if (int(10) !== 0) rec['code'] = int(n / 2 + 1); // some without a key; many keys repeated
    if (int(7) === 0) rec['code'] = String(rec['code']); // "7" is another key than 7
    return rec;
  };
  const a = Array.from({ length: n }, record);
  const b: Rec[] = [];
  for (const rec of a) {
    const roll = int(10);
    if (roll === 0) continue; // removed
    // Volatile values differ on most records (some keep their text: a record left as it was).
    const copy: Rec = int(3) === 0 ? { ...rec } : { ...rec, ...volatile() };
    if (roll === 1) copy['amount'] = Number(copy['amount']) + 1;
    if (roll === 2) copy['extra'] = true;
    if (roll === 3) copy['nested'] = { level: String((copy['nested'] as Rec)['level']) };
    if (roll === 4) b.push({ ...copy }); // a duplicate
    b.push(copy);
  }
  for (let i = 0; i < n / 10; i++) b.push(record()); // added
  // Moves: B in another order (records change pages), or a few records swapped.
  for (let i = b.length - 1; i > 0; i--) {
    if (moves === 'few' && int(20) !== 0) continue;
    const j = int(i + 1);
    [b[i], b[j]] = [b[j]!, b[i]!];
  }
  return { a, b };
}

/** The oracle: the rule of partitioned.ts written the slow, obvious way (quadratic, no partitions). */
export function oracle(a: readonly Rec[], b: readonly Rec[], rules: RecordRules, texts?: { a: readonly string[]; b: readonly string[] }): { counts: Record<string, number>; diffs: string[] } {
  const textA = (i: number): string => texts?.a[i] ?? JSON.stringify(a[i]);
  const textB = (i: number): string => texts?.b[i] ?? JSON.stringify(b[i]);
  const see = (x: Rec): { key: string; content: string } => ({ key: recordKey(x, rules), content: contentOf(x, rules) });
  const sa = a.map(see);
  const sb = b.map(see);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let unchanged = 0;
  // The same text, or the same key and content, at the same position: the same record, unchanged.
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (textA(i) === textB(i) || (sa[i]!.key === sb[i]!.key && sa[i]!.content === sb[i]!.content)) {
      usedA.add(i);
      usedB.add(i);
      unchanged++;
    }
  }
  for (let i = 0; i < a.length; i++) {
    if (usedA.has(i)) continue;
    for (let j = 0; j < b.length; j++) {
      if (!usedB.has(j) && sa[i]!.key === sb[j]!.key && sa[i]!.content === sb[j]!.content) {
        usedA.add(i);
        usedB.add(j);
        unchanged++;
        break;
      }
    }
  }
  const diffs: string[] = [];
  const keyOf = (k: string): unknown => (k.startsWith('k:') ? JSON.parse(k.slice(2)) : undefined);
  for (let i = 0; i < a.length; i++) {
    if (usedA.has(i)) continue;
    let paired = false;
    for (let j = 0; j < b.length; j++) {
      if (!usedB.has(j) && sa[i]!.key === sb[j]!.key) {
        usedB.add(j);
        diffs.push(JSON.stringify(['changed', keyOf(sa[i]!.key), a[i], b[j]]));
        paired = true;
        break;
      }
    }
    if (!paired) diffs.push(JSON.stringify(['removed', keyOf(sa[i]!.key), a[i], null]));
  }
  for (let j = 0; j < b.length; j++) if (!usedB.has(j)) diffs.push(JSON.stringify(['added', keyOf(sb[j]!.key), null, b[j]]));
  const count = (kind: string): number => diffs.filter((d) => d.startsWith(`["${kind}"`)).length;
  return { counts: { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged }, diffs: diffs.sort() };
}
