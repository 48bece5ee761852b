// The byte search behind Redactor.mayRedactJsonBytes (a known secret value in a streamed page's bytes):
// containsBytes, which searches by one rare byte of the value, must answer exactly Buffer.includes for
// every probe position, on texts made to defeat it (small alphabets, overlapping near-matches, the probe
// everywhere, values at either end, longer than the text, multi-byte UTF-8); and mayRedactJsonBytes
// must still find a value split between two pieces.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteBlocks, JsonRowSplitter } from '../../src/core/export/jsonRowSplitter';
import { Redactor } from '../../src/core/secrets';
import { containsBytes } from '../../src/core/text/byteSearch';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function assertSame(bytes: Buffer, value: Buffer, what: string): void {
  const expected = bytes.includes(value);
  for (let at = 0; at < value.length; at++) {
    assert.equal(containsBytes(bytes, value, at), expected, `${what}: probe at ${at} of ${JSON.stringify(value.toString('latin1'))} in ${JSON.stringify(bytes.toString('latin1').slice(0, 80))}…`);
  }
}

void describe('containsBytes', () => {
  void it('answers Buffer.includes on hand-made hostile cases, for every probe position', () => {
    const cases: [string, string][] = [
      ['abc', 'abc'], ['xxabc', 'abc'], ['abcxx', 'abc'], ['ab', 'abc'], ['', 'abcd'],
      ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', 'aaab'], ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'aaab'],
      ['abababababababababababababababx', 'ababababx'], ['ababababababababababababababab', 'ababababx'],
      ['sk_live_1sk_live_12sk_live_123', 'sk_live_123'], ['sk_live_1sk_live_12sk_live_12', 'sk_live_123'],
      ['to\u212Aen=\u00e9t\u00e9-secret', '\u00e9t\u00e9-secret'], ['to\u212Aen=\u00e9t\u00e9-secreT', '\u00e9t\u00e9-secret'],
      [`${'Sandbox-Demo-'.repeat(40)}1`, 'Sandbox-Demo-1'], ['Sandbox-Demo-'.repeat(40), 'Sandbox-Demo-1'],
    ];
    for (const [text, value] of cases) assertSame(Buffer.from(text, 'utf8'), Buffer.from(value, 'utf8'), 'case');
  });

  void it('falls back to the plain search when the probe matches everywhere, and still answers the same', () => {
    // Every byte is the probe's: far more places than PROBE_MISSES, the value only at the very end (or not at all).
    const filler = 'q'.repeat(100_000);
    assertSame(Buffer.from(`${filler}qqqqqqZ`), Buffer.from('qqqqqqZ'), 'at the end');
    assertSame(Buffer.from(`${filler}qqqqqZ${filler}`), Buffer.from('qqqqqqZ'), 'absent');
    assertSame(Buffer.from(`qqqqqqZ${filler}`), Buffer.from('qqqqqqZ'), 'at the start');
  });

  void it('answers Buffer.includes on 3 000 generated texts over small alphabets, values taken from them or mutated', () => {
    const next = random(14);
    for (let round = 0; round < 3_000; round++) {
      const alphabet = ['ab', 'abc', 'ab-_1', 'a\u00e9\u212A', 'xyz"\\:,'][round % 5]!;
      const chars = [...alphabet];
      const length = Math.floor(next() * 400);
      const text = Array.from({ length }, () => chars[Math.floor(next() * chars.length)]!).join('');
      const bytes = Buffer.from(text, 'utf8');
      const size = 1 + Math.floor(next() * 12);
      const from = Math.floor(next() * Math.max(1, bytes.length - size));
      let value = Buffer.from(bytes.subarray(from, from + size));
      if (value.length === 0) value = Buffer.from('ab');
      if (round % 2 === 1) value[Math.floor(next() * value.length)] = chars[Math.floor(next() * chars.length)]!.charCodeAt(0) & 0xff;
      assertSame(bytes, value, `round ${round}`);
    }
  });
});

void describe('Redactor.mayRedactJsonBytes', () => {
  const keys = (): ReadonlySet<string> => {
    const splitter = new JsonRowSplitter(undefined, new ByteBlocks());
    splitter.push(Buffer.from('[{"id":1,"note":"x"}]'));
    splitter.end();
    return splitter.secretKeyCandidates;
  };

  void it('finds a known value inside one piece, split between two pieces, and not in clean pieces', () => {
    const secret = 'Sandbox-Demo-1';
    const redactor = new Redactor([secret]);
    const row = (note: string): string => `{"id":1,"note":"${note}"}\n`;
    const clean = Buffer.from(row('Sandbox-Demo-2 and S-D-1').repeat(200));
    assert.equal(redactor.mayRedactJsonBytes([clean, clean], keys()), false);
    assert.equal(redactor.mayRedactJsonBytes([clean, Buffer.from(row(`echo ${secret}`)), clean], keys()), true);
    const whole = Buffer.concat([clean, Buffer.from(row(`echo ${secret}`)), clean]);
    for (const cut of [clean.length + 20, clean.length + 24, clean.length + 30]) {
      assert.equal(redactor.mayRedactJsonBytes([whole.subarray(0, cut), whole.subarray(cut)], keys()), true, `cut at ${cut}`);
    }
  });

  void it('answers true for an escape that can hide a value given, and only then (lower-case hex, punycode)', () => {
    const row = (note: string): Buffer => Buffer.from(`{"id":1,"next":"${note}"}\n`);
    const slashed = new Redactor(['pk/ABCDEFGHIJ/klmnop']);
    assert.equal(slashed.mayRedactJsonBytes([row('/list2?k=pk%2fABCDEFGHIJ%2fklmnop')], keys()), true, 'lower-case hex hides a /');
    assert.equal(slashed.mayRedactJsonBytes([row('/list2?k=a%20b')], keys()), true, 'any % may hide it');
    const plain = new Redactor(['Sandbox-Demo-1']);
    assert.equal(plain.mayRedactJsonBytes([row('/list2?k=a%20b+c')], keys()), false, 'a value of unreserved characters only: no escape hides it as usually written');
    const umlaut = new Redactor(['Geheim-Pässwort-42']);
    assert.equal(umlaut.mayRedactJsonBytes([row('http://xn--geheim-psswort-42-xqb.localhost/')], keys()), true, 'punycode hides a letter outside ASCII');
    assert.equal(new Redactor().mayRedactJsonBytes([row('sk_live-plain')], keys()), false, 'no value known, no escape: nothing to mask');
    assert.equal(new Redactor().mayRedactJsonBytes([row('\\u0065yJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln')], keys()), true, 'no value known: a \\u escape can still hide a shape (a JWT)');
  });
});

void describe('Redactor.mayRedactJsonBytes across the seams of pieces', () => {
  const rows = (count: number, extra: (i: number) => string): Buffer =>
    Buffer.from(Array.from({ length: count }, (_, i) => `{"id":${i},"Email":"person.${i}@example.test","Query":"page=${i}&sort=name","Note":"${extra(i)}"}\n`).join(''));
  const cuts = (bytes: Buffer): number[] => Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);

  void it('a plain page stays on the fast path wherever it is cut (an email or a pair cut by a seam is no shape)', () => {
    const page = rows(3, () => 'plain');
    const redactor = new Redactor(['Sandbox-Demo-1']);
    for (const cut of cuts(page)) {
      assert.equal(redactor.mayRedactJsonBytes([page.subarray(0, cut), page.subarray(cut)], new Set()), false, `cut at ${cut}`);
    }
    // Three pieces: a string running over a whole middle piece is still searched from where it began.
    for (const cut of cuts(page).filter((c) => c + 5 < page.length)) {
      assert.equal(redactor.mayRedactJsonBytes([page.subarray(0, cut), page.subarray(cut, cut + 5), page.subarray(cut + 5)], new Set()), false, `cut at ${cut} and ${cut + 5}`);
    }
  });

  void it('a URL password or a secret-named pair is found wherever a seam cuts it', () => {
    for (const shape of ['see https://perm:hunter22@host.example/x', 'then access_token=abc123&x=1']) {
      const page = rows(2, (i) => (i === 1 ? shape : 'plain'));
      const redactor = new Redactor();
      assert.equal(redactor.mayRedactJsonBytes([page], new Set()), true, shape);
      for (const cut of cuts(page)) {
        assert.equal(redactor.mayRedactJsonBytes([page.subarray(0, cut), page.subarray(cut)], new Set()), true, `${shape}: cut at ${cut}`);
      }
      for (const cut of cuts(page).filter((c) => c + 3 < page.length)) {
        const three = [page.subarray(0, cut), page.subarray(cut, cut + 3), page.subarray(cut + 3)];
        assert.equal(redactor.mayRedactJsonBytes(three, new Set()), true, `${shape}: cut at ${cut} and ${cut + 3}`);
      }
    }
  });
});
