// An object body of many small arrays one or two levels down (src/core/paging/lane.ts, laneRows.ts): each
// small array is only held until it closes, and the rows rule is asked once per chunk of the lanes it
// cannot tell apart only the first and last, not once per array. Oracles: JSON.parse of the body (or of
// the rows fully received, for a cut body) and the rule itself; the rule's calls counted through the
// `find` readAnywhere is given.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MalformedJsonError } from '../../src/core/export/jsonRowSplitter';
import { CHUNK, read, rule, small } from './laneReads';


void describe('many small arrays in one object body', () => {
  for (const depth of [1, 2] as const) {
    void it(`20 000 small arrays ${depth === 1 ? 'one' : 'two'} level(s) down, then the rows: the rule asked per chunk, of a few arrays`, async () => {
      const text = `{${small(20_000, depth, (i) => [{ i }, { j: i }]).join(',')},"Data":${JSON.stringify(Array.from({ length: 300 }, (_, id) => ({ id })))}}`;
      const got = await read(text);
      const expected = rule.find(JSON.parse(text));
      assert.ok(expected.ok);
      assert.equal(got.error, undefined);
      assert.deepEqual(got.lines, expected.rows);
      assert.equal(got.rowCount, 300);
      const chunks = Math.ceil(Buffer.byteLength(text) / CHUNK);
      // Once per chunk and once at the end (the whole skeleton): not once per array.
      assert.ok(got.asked.length <= chunks + 1, `the rule was asked ${got.asked.length} times for ${chunks} chunks`);
      // While the body arrives: the lane kept and two stand-ins of the equal ones closed in the chunk (the
      // last chunk's lane of rows too); at the end, every array.
      assert.ok(got.asked.slice(0, -1).every((n) => n <= 4), `arrays per ask: ${got.asked.join(' ')}`);
      assert.equal(got.asked.at(-1), 20_001);
    });
  }

  void it('equal small arrays: the rule picks the first of them, as JSON.parse and the rule would', async () => {
    // Past the size held whole (256 KiB); every array alike, so the rule's tie goes to the first.
    const text = `{${small(12_000, 2, (i) => [{ i }]).join(',')}}`;
    const got = await read(text, undefined, 4093);
    const expected = rule.find(JSON.parse(text));
    assert.ok(expected.ok);
    assert.deepEqual(got.lines, expected.rows);
    assert.deepEqual(got.lines, [{ i: 0 }]);
  });

  void it('a larger small array among equal ones is the one kept, wherever it is', async () => {
    for (const at of [1, 5_000, 11_998, 11_999]) {
      const text = `{${small(12_000, 1, (i) => i === at ? [{ i }, { i }, { i }] : [{ i }, { i }]).join(',')}}`;
      const got = await read(text, undefined, 8191);
      assert.deepEqual(got.lines, [{ i: at }, { i: at }, { i: at }], `the larger one at ${at}`);
      assert.equal(got.rowCount, 3);
    }
  });

  void it('a body cut inside its one small array keeps the rows fully received', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: i, note: `row ${i}` }));
    const head = `{"Blob":${JSON.stringify('x'.repeat(300_000))},"Items":[`;
    const text = `${head}${rows.map((r) => JSON.stringify(r)).join(',')}]}`;
    for (let k = 0; k <= rows.length; k += 7) {
      // Three bytes into the row after the k-th.
      const cut = Buffer.byteLength(head + rows.slice(0, k).map((r) => JSON.stringify(r)).join(',')) + 3;
      const got = await read(text, cut, 4096);
      assert.ok(got.error instanceof Error, `cut at ${cut}: fails`);
      assert.deepEqual(got.lines, rows.slice(0, k), `cut after ${k} rows`);
    }
  });

  void it('a small array that is not JSON: the fault at its byte in the body, the rows before it kept', async () => {
    const good = Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: i }));
    const text = `{"Blob":${JSON.stringify('x'.repeat(300_000))},"Items":[${good.join(',')},{"id":5,,"x":1}]}`;
    const got = await read(text, undefined, 4096);
    assert.ok(got.error instanceof MalformedJsonError);
    assert.match(String(got.error), new RegExp(`malformed JSON at byte ${text.indexOf(',,') + 1}:`));
    assert.deepEqual(got.lines, good.map((l) => JSON.parse(l) as unknown));
  });
});
