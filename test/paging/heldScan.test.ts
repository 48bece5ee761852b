// The scan of a held body (src/core/json/heldScan.ts) against an oracle that reads the whole text as a tree
// (jsonc-parser's parseTree, which keeps a key given twice): the deepest nesting, the longest array, the
// members of wide objects, an upper bound of the values, and whether an object of the skeleton (reached
// through objects only, down to keyDepth) gives a key twice, spelt the same or with an escape. The same
// figures whatever the chunks: the body cut in two at every byte (in a string, after a backslash, in a key),
// and in chunks of one byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTree, type Node } from 'jsonc-parser';
import { MAX_JSON_DEPTH } from '../../src/core/json/depth';
import { HeldScan } from '../../src/core/json/heldScan';

interface Figures { deepest: number; longest: number; wide: number; keysTwice: boolean }

/** The oracle's figures, and how many values the text holds. */
function oracle(text: string, keyDepth: number): Figures & { values: number } {
  const root = parseTree(text, [], { disallowComments: true });
  assert.ok(root, text);
  const f = { deepest: 0, longest: 0, wide: 0, keysTwice: false, values: 0 };
  // Keys spelt with an escape are said twice by the scan (it cannot tell them apart): the oracle says so too.
  const walk = (node: Node, depth: number, skeleton: boolean): void => {
    f.values++;
    if (node.type !== 'object' && node.type !== 'array') return;
    f.deepest = Math.max(f.deepest, depth);
    const items = node.children ?? [];
    if (node.type === 'array') {
      f.longest = Math.max(f.longest, Math.max(1, items.length));
      for (const item of items) walk(item, depth + 1, false);
      return;
    }
    if (items.length > 1000) f.wide += items.length;
    const inSkeleton = skeleton && depth <= keyDepth;
    const seen = new Set<string>();
    for (const member of items) {
      const [key, value] = member.children!;
      const name = key!.value as string;
      if (inSkeleton && (seen.has(name) || text.slice(key!.offset, key!.offset + key!.length).includes('\\'))) f.keysTwice = true;
      seen.add(name);
      if (value) walk(value, depth + 1, inSkeleton);
    }
  };
  walk(root, 1, true);
  return f;
}

function scanned(chunks: readonly Buffer[], keyDepth: number): Figures & { values: number } {
  const scan = new HeldScan(MAX_JSON_DEPTH, keyDepth);
  for (const chunk of chunks) scan.push(chunk);
  assert.equal(scan.bytes, chunks.reduce((n, c) => n + c.length, 0));
  return { deepest: scan.deepest, longest: scan.longest, wide: scan.wide, keysTwice: scan.keysTwice, values: scan.values };
}

const nest = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
const CORPUS = [
  '{}', '[]', '0', '"s"', 'null', '[1,2,3]', '{"a":1,"b":[1,2],"c":{"d":[]}}', '[{"a":1,"a":2}]',
  '{"a":1,"a":2}', '{"a":{"b":1,"b":2}}', '{"a":{"b":{"c":1,"c":2}}}', '{"a":[{"b":1,"b":2}]}', '{"a":1,"b":{"a":2}}',
  '{"a":1,"\\u0061":2}', '{"k\\"ey":1}', '{"v":"a\\\\","w":"\\"}{[","x":"\\\\\\""}', '{"s":"[[[{{{","t":[1,[2,[3]]]}',
  '{"":1,"":2}', '{"a":1, "b" : 2 ,"a" :3}', ` { "d" : ${nest(600)} , "e" : [ ] } `, nest(512), nest(513),
  `{${Array.from({ length: 1500 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  `[{${Array.from({ length: 1200 }, (_, i) => `"k${i}":0`).join(',')}},{${Array.from({ length: 999 }, (_, i) => `"k${i}":0`).join(',')}}]`,
  `{"rows":[${Array.from({ length: 300 }, (_, i) => `{"id":${i},"s":"r\\"${i}"}`).join(',')}],"next":"é😀"}`,
];

void describe('the held body\'s scan', () => {
  void it('says what the whole text\'s tree says, for every body of the corpus, at key depths 1 to 3', () => {
    for (const text of CORPUS) {
      for (const keyDepth of [1, 2, 3]) {
        const want = oracle(text, keyDepth);
        const got = scanned([Buffer.from(text)], keyDepth);
        assert.deepEqual({ ...got, values: 0 }, { ...want, values: 0 }, `${text.slice(0, 80)} (key depth ${keyDepth})`);
        assert.ok(got.values >= want.values, `values ${got.values} >= ${want.values}: ${text.slice(0, 80)}`);
      }
    }
  });

  void it('the same figures whatever the chunks: cut in two at every byte, and byte by byte', () => {
    for (const text of CORPUS) {
      const bytes = Buffer.from(text);
      if (bytes.length > 3000) continue;
      const whole = scanned([bytes], 2);
      for (let at = 0; at <= bytes.length; at++) {
        assert.deepEqual(scanned([bytes.subarray(0, at), bytes.subarray(at)], 2), whole, `${text.slice(0, 80)} cut at ${at}`);
      }
      assert.deepEqual(scanned(Array.from(bytes, (b) => Buffer.of(b)), 2), whole, `${text.slice(0, 80)} byte by byte`);
    }
  });
});
