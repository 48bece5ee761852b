// SmallLanes (src/core/paging/lane.ts) splits every small lane with one reused splitter, reading a lane
// that lies within one chunk between its own brackets: each lane, whatever came before it (a fault, a
// secret key, a pretty-printed row), gives what a splitter of its own gives it after LANE_PREFIX.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteBlocks, JsonRowSplitter } from '../../src/core/export/jsonRowSplitter';
import { Lane, LANE_PREFIX, SmallLanes } from '../../src/core/paging/lane';

const CONTENTS = [
  '{"i":1},{"j":2}',
  '1,"two",{"password":"x"},[3]',
  '{"a":1},{"b":',
  '{"token":{"nested":[1,2]}}',
  '',
  '{"a":\n  1\n},\n{"b": 2}',
  '"x\\"]",{"k\\u0065y":"]"}',
  '{"a":1} {"b":2}',
  '{"apiKey":1},',
  '  {"x" : [ 1 , 2 ] } , 7 ',
  'nul',
  '[1',
];

/** What a splitter of its own gives the lane: rows, lines, candidate keys, fault. */
function alone(content: string): { rows: number; lines: string; keys: string[]; error: string | undefined } {
  const out = new ByteBlocks(64);
  const splitter = new JsonRowSplitter('r', out);
  let error: string | undefined;
  try {
    splitter.push(Buffer.concat([LANE_PREFIX, Buffer.from(content), Buffer.from(']}')]));
    splitter.end();
  } catch (fault) {
    error = (fault as Error).message;
  }
  return { rows: splitter.rowsSoFar, lines: Buffer.concat(out.take()).toString(), keys: [...splitter.secretKeyCandidates].sort(), error };
}

/** The lane as it lies in a chunk: a view of its content, its brackets either side. */
function inChunk(content: string): Buffer {
  const chunk = Buffer.from(`{"k":[${content}],"z":0}`);
  return chunk.subarray(6, 6 + Buffer.byteLength(content));
}

for (const views of [true, false]) {
  void test(`one SmallLanes gives each lane what a splitter of its own gives it (${views ? 'views of the chunk' : 'copies'})`, () => {
    const small = new SmallLanes();
    // Every lane after every other (a fault, secrets, pretty-printed rows before it), checked once all are split.
    const splits: { c: string; split: ReturnType<SmallLanes['split']> }[] = [];
    for (const before of CONTENTS) {
      for (const content of CONTENTS) {
        for (const c of [before, content]) {
          const held = c === '' ? [] : [views ? inChunk(c) : Buffer.from(c)];
          splits.push({ c, split: small.split(held, views, new Lane(['k'], 0)) });
        }
      }
    }
    for (const { c, split } of splits) {
      const want = alone(c);
      assert.equal(split.rows, want.rows, c);
      assert.equal(Buffer.concat(split.ndjson).toString(), want.lines, c);
      assert.deepEqual([...split.candidates].sort(), want.keys, c);
      assert.equal(split.error?.message, want.error, c);
    }
  });
}

void test('rows not kept: a small lane is only weighed, as its lines would be', () => {
  const small = new SmallLanes(false);
  for (const content of CONTENTS) {
    const lane = new Lane(['k'], 0);
    const split = small.split([inChunk(content)], true, lane);
    const want = alone(content);
    const lines = want.lines.split('\n').filter((l) => l !== '');
    assert.equal(split.rows, want.rows, content);
    assert.deepEqual(split.ndjson, [], content);
    assert.equal(lane.sampled, lines.length, content);
    assert.equal(lane.objects, lines.filter((l) => l.startsWith('{')).length, content);
  }
});
