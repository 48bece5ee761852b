// A `###` block whose first line is no request line (prose after `### Notes`, the text below a Markdown
// `### heading` in a body) is never sent as a GET of that text: `apiwb run` says it not run, with its file
// and line, and exits 1; the file's requests run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer } from './localServer';
import { runInProcess } from './inProcess';

void test('apiwb run names the file and line of a block of prose and sends no GET of it', async () => {
  const seen: string[] = [];
  const server = await startLocalServer('apiwb-prose-block-', (req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  try {
    const file = join(server.dir, 'notes.http');
    writeFileSync(file, '### Notes\nThese are notes about the API\n\n### health\nGET {{base}}/health\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, new RegExp(`not run \\(API Workbench\\) at ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2: line 2: Not a request line`));
    assert.deepEqual(seen, ['GET /health']);
  } finally {
    await server.close();
  }
});
