// A body of many small arrays one or two levels down (each one a lane: src/core/paging/laneRows.ts) is
// read in bounded memory: a lane read to its end keeps only what the rows rule needs, not its splitter
// and blocks. Run in a child with a small heap (fixtures/manyLanes.ts): keeping every lane's splitter
// (about 2 KB each, plus a 64 KiB block for every lane closed in a chunk) runs it out of memory.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

void describe('a body of many small arrays', () => {
  void it('200,000 small arrays then the rows: the rows found, within a 256 MB heap', async () => {
    const child = join(import.meta.dirname, 'fixtures', 'manyLanes.ts');
    const { stdout } = await exec(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', child, '200000'], { cwd: ROOT, maxBuffer: 1 << 20 });
    assert.deepEqual(JSON.parse(stdout), { rowCount: 2000, lines: 2000, first: '{"id":0}' });
  });
});
