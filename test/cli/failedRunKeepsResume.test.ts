// Adversarial review (invariant: a failed run loses nothing the user had). README: "an existing --out is
// replaced only once its first row is written, so a run that fails at sign-in leaves yesterday's file";
// "a failure line names the exact `apiwb run … --resume` that continues it and appends to F".
// Yesterday's walk was cut at page 3: 4 rows in --out and its record beside it (resumable from page 3).
// Today the same command runs again and fails at page 1: --out is put back as it was, but the record
// beside it is replaced by today's (file length 0), and the line says "To continue from page 1,
// appending to rows.ndjson: … --resume". Running that command truncates yesterday's 4 rows (the record
// says 0 bytes are the walk's) and fetches everything again: rows that have changed since are lost.
// Where: src/cli/runResume.ts (resumeRecordOf: the record kept beside --out), src/cli/resumeFile.ts
// (a length of 0 is taken for a file holding rows), src/core/export/fileSink.ts (the old file put back).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

void describe('a run that fails before its first row keeps yesterday\'s walk resumable', () => {
  let server: LocalServer;
  /** 1: page 3 fails; 2: page 1 fails; 3: every page answers. The rows carry the phase (data changes). */
  let phase = 1;

  before(async () => {
    server = await startLocalServer('apiwb-rev-keepresume-', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      if ((phase === 1 && page === 3) || (phase === 2 && page === 1)) {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"Message":"try again later"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(page), 'X-Pagination-Per-Page': '2', 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '8' })
        .end(JSON.stringify([{ id: page * 10 + 1, phase }, { id: page * 10 + 2, phase }]));
    });
    writeFileSync(join(server.dir, 'walk.http'), '# @name walk\n# @paging page-headers\nGET {{base}}/rows\n');
  });

  after(async () => { await server.close(); });

  void it('the printed --resume does not cut the rows the user had', async () => {
    const out = join(server.dir, 'rows.ndjson');
    const args = [join(server.dir, 'walk.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', out];
    phase = 1;
    const yesterday = await runInProcess(args);
    assert.equal(yesterday.code, 1, yesterday.stdout + yesterday.stderr);
    const kept = readFileSync(out, 'utf8');
    assert.equal(kept.trim().split('\n').length, 4, kept);

    phase = 2;
    const today = await runInProcess(args);
    assert.equal(today.code, 1, today.stdout + today.stderr);
    assert.equal(readFileSync(out, 'utf8'), kept, 'the failed run did not put yesterday\'s file back');
    assert.match(today.stdout, /--resume/, today.stdout);

    phase = 3;
    const resumed = await runInProcess([...args, '--resume']);
    const after = readFileSync(out, 'utf8');
    assert.ok(after.startsWith(kept), `yesterday's rows were cut by the --resume the failed run printed (exit ${resumed.code}): ${JSON.stringify(after)}\n${today.stdout}\n${resumed.stdout}${resumed.stderr}`);
  });
});
