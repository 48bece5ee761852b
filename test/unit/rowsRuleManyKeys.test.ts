// The rows rule on a body of many keys (issue 37: one object of 200 000 small arrays) is asked once of a
// streamed skeleton: the answer the streamed read got (findStreamed) is handed to the page's verdict of
// that same body, once, and to no other body; asks of other bodies between the two (the editor runs many
// requests at once) neither take nor drop it, and it does not keep the body alive. Its one-pass walk of the keys gives the answer of the rule as
// it was written (every key one level down, then every key two levels down), ties and all, checked against
// that older form on generated bodies. A skeleton's fields are set as JSON.parse sets them (ownField.ts):
// "__proto__" an own field, not the prototype.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isJsonObject } from '../../src/core/json/numberText';
import { setOwnField } from '../../src/core/json/ownField';
import { ERROR_LIST_KEYS, objectShare, ROWS_OBJECT_SHARE, ROWS_SAMPLE, rowsRule } from '../../src/core/paging/rows';

/** The rule's step 5 as it was written before (two passes, a copy of each sample): the oracle. */
function largestTwoPasses(body: Record<string, unknown>): { path: string; rows: unknown[] } | undefined {
  let best: { path: string; rows: unknown[] } | undefined;
  const share = (a: unknown[]): number => (a.length === 0 ? 0 : a.slice(0, ROWS_SAMPLE).filter(isJsonObject).length / Math.min(a.length, ROWS_SAMPLE));
  const consider = (key: string, path: string, value: unknown): void => {
    if (!Array.isArray(value) || ERROR_LIST_KEYS.includes(key) || (value.length > 0 && share(value) < ROWS_OBJECT_SHARE)) return;
    if (!best || value.length > best.rows.length) best = { path, rows: value };
  };
  for (const key of Object.keys(body)) consider(key, key, body[key]);
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (isJsonObject(value)) for (const inner of Object.keys(value)) consider(inner, `${key}.${inner}`, value[inner]);
  }
  return best;
}

/** A small deterministic generator: bodies with ties, error lists, primitives, empty arrays, both depths. */
function generated(seed: number): Record<string, unknown> {
  let s = seed;
  const next = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  const array = (): unknown[] => Array.from({ length: next(4) }, () => (next(3) === 0 ? next(9) : { i: next(9) }));
  const keys = ['a', 'b', 'Errors', '7', 'c', 'errors', 'd'];
  const body: Record<string, unknown> = {};
  for (let k = 0; k < 2 + next(6); k++) {
    const key = keys[next(keys.length)]!;
    const kind = next(4);
    if (kind === 0) body[key] = array();
    else if (kind === 1) body[key] = Object.fromEntries(Array.from({ length: 1 + next(3) }, () => [keys[next(keys.length)]!, next(2) === 0 ? array() : 'x']));
    else if (kind === 2) body[key] = next(9);
    else body[key] = [];
  }
  return body;
}

/** A body whose key walks are counted (the rule reads Object.keys of it once a walk). */
function counted(body: Record<string, unknown>): { body: Record<string, unknown>; walks: () => number } {
  let walks = 0;
  const proxy = new Proxy(body, {
    ownKeys(target) {
      walks++;
      return Reflect.ownKeys(target);
    },
  });
  return { body: proxy, walks: () => walks };
}

void describe('the rows rule on a body of many keys', () => {
  void it('gives the answer of the rule as first written, on 3 000 generated bodies', () => {
    const rule = rowsRule('none', {});
    for (let seed = 1; seed <= 3000; seed++) {
      const body = generated(seed);
      const want = largestTwoPasses(body);
      const got = rule.find(body);
      if (want) assert.deepEqual(got.ok ? { path: got.path, rows: got.rows } : got, want, `seed ${seed}: ${JSON.stringify(body)}`);
      else assert.equal(got.ok, false, `seed ${seed}: ${JSON.stringify(body)}`);
    }
  });

  void it('counts an array\'s object share over its first items, as the sample always did', () => {
    assert.equal(objectShare([]), 0);
    assert.equal(objectShare([{}, 1]), 0.5);
    assert.equal(objectShare([...Array.from({ length: ROWS_SAMPLE }, () => ({})), ...Array.from({ length: 500 }, () => 1)]), 1);
    assert.equal(objectShare([1, 2, 3, {}]), 0.25);
  });

  void it('hands the streamed answer to the next ask of the same body, once, and to no other', () => {
    const raw: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) raw[`k${i}`] = [{ i }, { j: i }];
    raw['Data'] = Array.from({ length: 20 }, (_, i) => ({ i }));
    const { body, walks } = counted(raw);
    // The streamed read's rule and the strategy's are two rules of one place (as resolve.ts makes them).
    const streamed = rowsRule('none', {});
    const verdict = rowsRule('none', {});
    const first = streamed.findStreamed(body);
    assert.equal(walks(), 1);
    assert.ok(first.ok && first.path === 'Data');
    const again = verdict.find(body);
    assert.equal(walks(), 1, 'the verdict of the same body is the streamed answer, not a second walk');
    assert.deepEqual(again, first);
    verdict.find(body);
    assert.equal(walks(), 2, 'handed on once only');
    // Another body (or the same one asked by a rule of another place) is walked.
    streamed.findStreamed(body);
    const other = counted({ ...raw });
    verdict.find(other.body);
    assert.equal(other.walks(), 1);
    streamed.findStreamed(body);
    const walked = walks();
    rowsRule('none', { items: 'Data' }).find(body);
    rowsRule('none', {}).find(body);
    assert.equal(walks(), walked + 1, 'a rule of another place consumes the answer without taking it');
  });
});

void describe('the streamed answer, handed on beside its body', () => {
  void it('is the verdict of its body even when other bodies were asked in between', () => {
    const raw: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) raw[`k${i}`] = [{ i }];
    raw['Data'] = [{ a: 1 }, { a: 2 }];
    const mine = counted(raw);
    const theirs = counted({ ...raw });
    const first = rowsRule('none', {}).findStreamed(mine.body);
    // Another request's streamed read and verdict, between this read and its verdict.
    rowsRule('none', {}).findStreamed(theirs.body);
    rowsRule('none', {}).find(theirs.body);
    assert.equal(theirs.walks(), 1);
    const verdict = rowsRule('none', {}).find(mine.body);
    assert.equal(mine.walks(), 1, 'the verdict is the streamed answer: the body is walked once');
    assert.deepEqual(verdict, first);
  });

  void it('does not keep its body alive once nobody else holds it', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const streamed = (): WeakRef<object> => {
      const body = { Data: [{ a: 1 }], other: 1 };
      rowsRule('none', {}).findStreamed(body);
      return new WeakRef(body);
    };
    const ref = streamed();
    // A WeakRef made in this turn holds its target until the turn ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    assert.equal(ref.deref(), undefined, 'the skeleton is collected: the answer handed on does not hold it');
  });
});

void describe('a skeleton\'s fields, set as JSON.parse sets them', () => {
  void it('"__proto__" is an own field and the prototype stays; other keys keep their order', () => {
    const text = '{"a":1,"__proto__":{"x":1},"constructor":2,"toString":[3],"b":[]}';
    const oracle = JSON.parse(text) as Record<string, unknown>;
    const built: Record<string, unknown> = {};
    for (const key of Object.keys(oracle)) setOwnField(built, key, oracle[key]);
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
    assert.ok(Object.hasOwn(built, '__proto__'));
    assert.deepEqual(Object.keys(built), Object.keys(oracle));
    assert.equal(JSON.stringify(built), text);
    // Set again: the value changes, the place does not.
    setOwnField(built, 'a', 9);
    setOwnField(built, '__proto__', 8);
    assert.deepEqual(Object.keys(built), Object.keys(oracle));
    assert.equal(built['a'], 9);
    assert.equal(Object.getOwnPropertyDescriptor(built, '__proto__')?.value, 8);
  });
});
