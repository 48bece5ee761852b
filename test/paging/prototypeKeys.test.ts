// Object bodies read anywhere whose outer key (one level down, holding the array two levels down) is a
// name Object.prototype already has: "__proto__", "constructor", "toString". Oracle: JSON.parse of the
// whole body (an own field of that name) and the rows rule asked of it. Found by a review (older than
// the fix): the rule's skeleton read `holder[key]` without asking whether it was an own field.
// - "__proto__" two levels down: the placeholder was set ON Object.prototype (every object of the process
//   then had a field "v": prototype pollution from a server's body);
// - an outer object not kept (past the skeleton's 1 MiB a field) under such a name: the prototype's
//   member was taken as the kept object, and the read refused the body naming another array, where
//   JSON.parse and the rule take the 50 rows.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { read, rule } from './laneReads';

const rows = (n: number, tag: string): string => JSON.stringify(Array.from({ length: n }, (_, i) => ({ i, tag })));
/** Over the size held whole (256 KiB): the body streams. */
const filler = Array.from({ length: 3000 }, (_, i) => `"f${i}":"${'y'.repeat(100)}"`).join(',');
/** A field past the skeleton's budget of one field (1 MiB): its object is not kept. */
const big = `"big":"${'z'.repeat(1_200_000)}"`;

function oracle(text: string): unknown[] {
  const found = rule.find(JSON.parse(text));
  return found.ok ? [...found.rows] : [];
}

void describe('an outer key named as a member of Object.prototype, its array two levels down', () => {
  afterEach(() => {
    // Undo what a failing read did to every object of this process.
    Reflect.deleteProperty(Object.prototype, 'v');
  });

  void it('"__proto__":{"v":[…]}: the rows JSON.parse gives, and Object.prototype left alone', async () => {
    const text = `{${filler},"__proto__":{"v":${rows(50, 'p')}},"x":${rows(1, 'x')}}`;
    for (const step of [4093, 65536]) {
      const got = await read(text, undefined, step);
      const polluted = Object.prototype.hasOwnProperty.call(Object.prototype, 'v');
      Reflect.deleteProperty(Object.prototype, 'v');
      assert.equal(polluted, false, `step ${step}: the body set a field "v" on Object.prototype`);
      assert.equal(got.error, undefined);
      assert.deepEqual(got.lines, oracle(text), `step ${step}`);
    }
  });

  for (const name of ['constructor', 'toString', '__proto__']) {
    void it(`"${name}":{<a field past 1 MiB>,"v":[…]}: the rows JSON.parse gives (50), not a refusal naming "x"`, async () => {
      const text = `{"${name}":{${big},"v":${rows(50, 'c')}},"x":${rows(1, 'x')}}`;
      const want = oracle(text);
      assert.equal(want.length, 50, 'the oracle takes the array at name.v');
      const got = await read(text, undefined, 65536);
      Reflect.deleteProperty(Object.prototype, 'v');
      assert.equal(got.error, undefined, got.error instanceof Error ? got.error.message : String(got.error));
      assert.deepEqual(got.lines, want);
      assert.equal(got.rowCount, 50);
    });
  }
});
