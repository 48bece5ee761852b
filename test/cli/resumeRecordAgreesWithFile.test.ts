// Adversarial review (invariants: nothing read back is obeyed beyond what produced it; a stopped run loses
// nothing the user had; no "complete" with rows missing). README: "A checkpoint is untrusted input:
// --resume takes it only for the --out file it was written beside, at a row's end after the row it saw
// last … a record whose … counts are not the request's own … is refused (exit 2) and nothing is sent."
// A walk is cut at page 3 with 4 rows kept in --out. Its record beside --out is edited: the file length
// set to 0 and the hash of the last row (`tail`) removed; the counts still say 2 pages and 4 rows.
// src/cli/resumeFile.ts (resumeRecordRefusal) takes a length of 0 without a last row as a good place:
// --resume truncates the 4 rows the user had, fetches pages 3–4, prints "✓ … 8 rows" and exits 0, while
// the file holds 4 rows. Likewise a record whose row count alone is raised (1000 instead of 4, its file
// length and last row as written) is taken: the line says "✓ … 1004 rows", exit 0, for a file of 8 rows.
// The rule: src/cli/resumeFile.ts with src/core/paging/resumeCheck.ts (counts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { writeSignedRecord } from './signedRecord';
import { startLocalServer, type LocalServer } from './localServer';

void describe('an edited resume record cannot empty the --out file', () => {
  let server: LocalServer;
  let failPage3 = true;

  before(async () => {
    server = await startLocalServer('apiwb-rev-resume-', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      if (page === 3 && failPage3) {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"try again later"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(page), 'X-Pagination-Per-Page': '2', 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '8' })
        .end(JSON.stringify([{ id: page * 10 + 1 }, { id: page * 10 + 2 }]));
    });
    writeFileSync(join(server.dir, 'walk.http'), '# @name walk\n# @paging page-headers\nGET {{base}}/rows\n');
  });

  after(async () => { await server.close(); });

  /** A walk cut at page 3 into `name` (4 rows kept), its record edited by `edit`; then --resume. */
  async function cutThenResume(name: string, edit: (record: { tail?: string; checkpoint: { rows: number; pages: number; sink: { bytes: number } } }) => void) {
    const out = join(server.dir, name);
    const args = [join(server.dir, 'walk.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out];
    failPage3 = true;
    const first = await runInProcess(args);
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const kept = readFileSync(out, 'utf8');
    const recordPath = `${out}.apiwb-resume.json`;
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as { tail?: string; checkpoint: { rows: number; pages: number; sink: { bytes: number } } };
    edit(record);
    writeSignedRecord(`${recordPath}.edit`, record);
    renameSync(`${recordPath}.edit`, recordPath);
    failPage3 = false;
    const resumed = await runInProcess([...args, '--resume']);
    return { kept, resumed, after: readFileSync(out, 'utf8') };
  }

  void it('refuses a record that counts 1000 rows kept for a file of 4, and says no such count', async () => {
    const { after, resumed } = await cutThenResume('counted.ndjson', (record) => { record.checkpoint.rows = 1000; });
    const rowsInFile = after.trim().split('\n').length;
    assert.doesNotMatch(resumed.stdout, /\b1004 rows\b/, `the line counts rows the file does not hold (${rowsInFile} in it): ${resumed.stdout}`);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  });

  void it('refuses a record whose file length is 0 while it counts 4 rows kept, and keeps the rows', async () => {
    const { kept, after, resumed } = await cutThenResume('emptied.ndjson', (record) => {
      assert.equal(record.checkpoint.rows, 4);
      record.checkpoint.sink.bytes = 0;
      delete record.tail;
    });
    assert.equal(kept.trim().split('\n').length, 4, kept);
    assert.ok(after.startsWith(kept), `the rows kept before were lost (exit ${resumed.code}): file now ${JSON.stringify(after)}\n${resumed.stdout}${resumed.stderr}`);
    assert.equal(resumed.code, 2, resumed.stdout + resumed.stderr);
  });
});
