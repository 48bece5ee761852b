// The row splitter as its three parts read it (jsonScanner.ts, jsonRowSplitter.ts, keyReader.ts and
// secretKeys.ts): a fault in each grammar state is refused at its byte with exactly the rows before it
// out, at every cut; a cut body keeps exactly the rows fully received; "anywhere" mode's lanes, dropped
// fields and scalar bodies; which row keys are secret-name candidates in an array body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteBlocks, JsonRowSplitter, MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import type { AnywhereOptions } from '../../src/core/export/splitResult';

/** Pushes `bytes` cut at `cuts`; returns the NDJSON out so far and the fault, if any (end() included when `ends`). */
function feed(splitter: JsonRowSplitter, out: ByteBlocks, bytes: Buffer, cuts: readonly number[], ends = true): { ndjson: string; fault?: Error } {
  let from = 0;
  try {
    for (const cut of [...cuts, bytes.length]) {
      splitter.push(bytes.subarray(from, cut));
      from = cut;
    }
    if (ends) splitter.end();
  } catch (error) {
    return { ndjson: Buffer.concat(out.buffers()).toString('utf8'), fault: error as Error };
  }
  return { ndjson: Buffer.concat(out.buffers()).toString('utf8') };
}

const BEFORE = '{"T":"x","Result":[{"a":1},{"b":"two"},';
const ROWS_BEFORE = '{"a":1}\n{"b":"two"}\n';

// A third row broken in each grammar state; `^` marks the byte the body is refused at.
const FAULTS: Record<string, string> = {
  'value expected': '{"c":^}',
  'first in an array': '[^,1]',
  'first in an object': '{^,"a":1}',
  'key after a comma': '{"a":1,^}',
  'colon expected': '{"a" ^1}',
  'after a value': '{"a":1 ^2}',
  'after a value in an array': '[1 ^2]',
  'string: control character': '{"a":"x^\u0001"}',
  'key: control character': '{"a^\u0001":1}',
  'escape': '{"a":"\\^q"}',
  'key escape': '{"\\^q":1}',
  'hex escape': '{"a":"\\u12^G4"}',
  'hex escape of three digits': '{"a":"\\u123^"}',
  'after minus': '{"a":-^x}',
  'leading zero': '{"a":0^1}',
  'integer part': '{"a":12^x}',
  'after a dot': '{"a":1.^x}',
  'fraction': '{"a":1.5^x}',
  'exponent': '{"a":1e^x}',
  'exponent sign': '{"a":1e+^x}',
  'exponent digits': '{"a":1e5^x}',
  'literal': '{"a":tru^x}',
  'closing bracket of the other kind': '{"a":[1^}}',
  'closing an array that is an object': '{"a":1^]}',
};

void describe('JsonRowSplitter refuses a fault in each grammar state', () => {
  for (const [state, marked] of Object.entries(FAULTS)) {
    void it(`${state}: at the faulty byte, with exactly the rows before it out, at every cut`, () => {
      const text = `${BEFORE}${marked}]}`;
      const at = Buffer.byteLength(text.slice(0, text.indexOf('^')));
      const bytes = Buffer.from(text.replace('^', ''));
      for (let cut = 0; cut < bytes.length; cut++) {
        const out = new ByteBlocks(16);
        const { ndjson, fault } = feed(new JsonRowSplitter('Result', out), out, bytes, cut === 0 ? [] : [cut]);
        assert.ok(fault instanceof MalformedJsonError, `refused, cut at ${cut}`);
        assert.match(fault.message, new RegExp(`^malformed JSON at byte ${at}: `), `cut at ${cut}`);
        assert.equal(ndjson, ROWS_BEFORE, `cut at ${cut}`);
      }
    });
  }

  void it('content after the end of the body: every row is out, the fault is at the first byte after it', () => {
    const text = '{"Result":[{"a":1},{"b":"two"}]} \n x';
    for (let cut = 0; cut < text.length; cut++) {
      const out = new ByteBlocks(16);
      const { ndjson, fault } = feed(new JsonRowSplitter('Result', out), out, Buffer.from(text), cut === 0 ? [] : [cut]);
      assert.equal(fault?.message, `malformed JSON at byte ${text.length - 1}: unexpected content after the end of the body`);
      assert.equal(ndjson, ROWS_BEFORE);
    }
  });

  void it('literals, numbers, escapes and keys cut by chunk ends are read on in the next chunk', () => {
    const text = '{"Result":[{"t":true,"f":false,"n":null,"num":-12.5e+3,"z":0.5,"z2":-0.25e-2,"z3":0E1,"s":"\\u00e9\\n","k\\u0065y":1}],"the \\"key\\"":[0]}';
    const bytes = Buffer.from(text);
    const parsed = JSON.parse(text) as { Result: unknown[]; 'the "key"': unknown };
    const byteByByte = Array.from({ length: bytes.length - 1 }, (_, k) => k + 1);
    for (const cuts of [...Array.from({ length: bytes.length - 1 }, (_, k) => [k + 1]), byteByByte]) {
      const out = new ByteBlocks(16);
      const splitter = new JsonRowSplitter('Result', out);
      const { ndjson, fault } = feed(splitter, out, bytes, cuts, false);
      assert.equal(fault, undefined, `cuts ${cuts.length}`);
      assert.deepEqual(JSON.parse(ndjson), parsed.Result[0], `cut at ${cuts[0]} (${cuts.length} cuts)`);
      assert.deepEqual(splitter.end().fields, { 'the "key"': [0] }, `cut at ${cuts[0]} (${cuts.length} cuts)`);
    }
  });
});

void describe('JsonRowSplitter on a body cut short', () => {
  const rows = [{ id: 1, s: 'a},{' }, { id: 2, n: [1, { x: [] }] }, { id: 3, e: '\\"' }, { id: 4 }];
  for (const [name, text] of [['compact', JSON.stringify({ Result: rows, After: 1 })], ['pretty-printed', JSON.stringify({ Result: rows, After: 1 }, null, 2)]] as const) {
    void it(`${name}: after every byte, out holds exactly the rows whose last byte came, and end() says the body ended early`, () => {
      const bytes = Buffer.from(text);
      // Where each row ends: the byte after its closing brace, found by the row's own text.
      const ends: number[] = [];
      let from = text.indexOf('[') + 1;
      for (const row of rows) {
        const own = name === 'compact' ? JSON.stringify(row) : JSON.stringify(row, null, 2).replace(/\n/g, '\n    ');
        const at = text.indexOf(own, from);
        assert.ok(at > 0, `row ${row.id} found`);
        from = at + own.length;
        ends.push(from);
      }
      for (let cut = 1; cut < bytes.length; cut++) {
        const out = new ByteBlocks(16);
        const splitter = new JsonRowSplitter('Result', out);
        const { ndjson } = feed(splitter, out, bytes.subarray(0, cut), [], false);
        const whole = ends.filter((end) => end <= cut).length;
        assert.equal(ndjson, rows.slice(0, whole).map((r) => `${JSON.stringify(r)}\n`).join(''), `cut at ${cut}`);
        assert.equal(splitter.rowsSoFar, whole, `cut at ${cut}`);
        assert.throws(() => splitter.end(), (error: Error) => error instanceof MalformedJsonError && error.message === `malformed JSON: the body ends early (after ${cut} bytes)`, `cut at ${cut}`);
      }
    });
  }
});

void describe('JsonRowSplitter in anywhere mode', () => {
  const options = (fieldBytes: number): AnywhereOptions => ({ alwaysKept: new Set(['Message']), fieldBytes, keptBytes: 1 << 20, summarise: () => undefined });
  const run = (text: string, fieldBytes = 1 << 20, chunk = 8) => {
    const out = new ByteBlocks(16);
    const splitter = new JsonRowSplitter(undefined, out, options(fieldBytes));
    const bytes = Buffer.from(text);
    const cuts = Array.from({ length: Math.ceil(bytes.length / chunk) - 1 }, (_, k) => (k + 1) * chunk);
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      splitter.push(bytes.subarray(from, cut));
      from = cut;
    }
    return { result: splitter.end(), ndjson: Buffer.concat(out.buffers()).toString('utf8') };
  };

  void it('counts each array one level down as a lane (an error list is a field), keeps the other fields, copies no row', () => {
    const { result, ndjson } = run('{"Few":[{"a":1},2],"Errors":[],"Many":[{"x":1},{"y":[2]},{"z":3}],"Meta":{"n":1}}');
    assert.equal(ndjson, '');
    assert.deepEqual(result.lanes?.map((l) => [l.path, l.count, l.sampled, l.objects]), [['Few', 2, 2, 1], ['Many', 3, 3, 3]]);
    assert.deepEqual(result.fields, { Few: [], Errors: [], Many: [], Meta: { n: 1 } });
    assert.equal(result.uncertain, false);
    assert.equal(result.scalar, false);
  });

  void it('a top-level array is a lane whose rows go out', () => {
    const { result, ndjson } = run('[{"a":1},[2],"three"]');
    assert.equal(ndjson, '{"a":1}\n[2]\n"three"\n');
    assert.deepEqual(result.lanes?.map((l) => [l.path, l.count, l.objects]), [['$', 3, 1]]);
    assert.equal(result.rowCount, 3);
  });

  void it('a field too large to keep is dropped; it makes the skeleton uncertain only when it holds an array one level down', () => {
    const pad = 'x'.repeat(40);
    assert.equal(run(`{"Big":{"Items":[1,2],"pad":"${pad}"},"n":1}`, 16).result.uncertain, true);
    const { result } = run(`{"Big":{"deeper":{"Items":[1,2]},"pad":"${pad}"},"n":1}`, 16);
    assert.equal(result.uncertain, false);
    assert.deepEqual(result.fields, { n: 1 });
    assert.equal(run(`{"Big":{"pad":"${pad}"}}`, 16).result.uncertain, false);
    // An error list (a field, not a lane) holding arrays: not rows one level down in an object.
    assert.equal(run(`{"Errors":[[1,2],"${pad}"]}`, 16).result.uncertain, false);
    // A business key too large for the field bound is still kept whole.
    assert.deepEqual(run(`{"Message":"${pad}"}`, 16).result.fields, { Message: pad });
  });

  void it('a body that is one string, number or literal is read, not kept; anything after it is refused', () => {
    for (const text of ['"abc"', ' 12.5 ', 'true', 'null']) {
      const { result, ndjson } = run(text, 1 << 20, 2);
      assert.deepEqual([result.scalar, result.rowCount, result.rowsFound, result.lanes, ndjson], [true, 0, false, [], ''], text);
    }
    for (const text of ['1 2', '"a" "b"', 'true,', '1,2', '"a",{"b":1}']) assert.throws(() => run(text, 1 << 20, 2), MalformedJsonError, text);
  });
});

void describe('JsonRowSplitter secret-name candidates in an array body', () => {
  void it('the rows\' keys at any depth that may name a secret, and none of the plain ones', () => {
    const text = '[{"id":1,"password":"x","nested":{"apiKey":"k","City":"c"}},{"Email":"e","list":[{"client_secret":"s"}]}]';
    for (let cut = 1; cut < text.length; cut += 2) {
      const splitter = new JsonRowSplitter(undefined, new ByteBlocks(16));
      splitter.push(Buffer.from(text.slice(0, cut)));
      splitter.push(Buffer.from(text.slice(cut)));
      splitter.end();
      assert.deepEqual([...splitter.secretKeyCandidates].sort(), ['apiKey', 'client_secret', 'password'], `cut at ${cut}`);
    }
  });
});
