// What LaneRows remembers of an object body's keys is bounded by one chunk's keys, whatever the number of
// chunks: a body whose values are objects, not arrays (one big object of rows: no lane ever closes), gave
// every key of the body to the chunk key log, which then grew with the body (a 100 MB object: 136 MB of
// typed arrays, 300 MB peak RSS against the 200 MiB goal). After each chunk the log is empty again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LaneRows } from '../../src/core/paging/laneRows';
import { rowsRule } from '../../src/core/paging/rows';

/** The number of keys the lanes' doubts still look through (private: read for this test only). */
function keysLogged(lanes: LaneRows): number {
  return (lanes as unknown as { doubts: { logN: number } }).doubts.logN;
}

void describe('the lanes\' key log', () => {
  void it('holds no key past its chunk when no lane closes in it', async () => {
    const lanes = new LaneRows((body) => rowsRule('none', {}).find(body), false);
    for (let chunk = 0; chunk < 50; chunk++) {
      for (let k = 0; k < 1_000; k++) {
        lanes.key(1, [chunk * 1_000 + k + 1, 7]);
        lanes.key(2, [k + 1, 9]);
      }
      await lanes.settle();
      assert.equal(keysLogged(lanes), 0, `after chunk ${chunk}`);
    }
  });

  void it('holds no key past its chunk when a lane closes in it', async () => {
    const lanes = new LaneRows((body) => rowsRule('none', {}).find(body), false);
    for (let chunk = 0; chunk < 5; chunk++) {
      lanes.key(1, [chunk + 1, 3]);
      lanes.open([`k${chunk}`]);
      lanes.inside(Buffer.from('[1,2]'));
      lanes.close();
      await lanes.settle();
      assert.equal(keysLogged(lanes), 0, `after chunk ${chunk}`);
    }
  });
});
