// A field the business check reads by name costs a body no more memory than its rows do: an `Error` of
// 20 MiB (past the held budget, so the body streams) was held whole up to 256 MiB (a 270 MB one: about 400
// MiB of memory, against issue 37's 200 MiB for any shape). Past 16 MiB it is not held: the request fails,
// saying the field arrived too large to show, and the rows are written all the same. Under 16 MiB its
// words are read as before. A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const ROWS = '[{"id":1},{"id":2},{"id":3}]';
const BODIES: Record<string, string> = {
  huge: `{"Response":false,"Error":"${'x'.repeat(20 * 1048576)}","Data":${ROWS}}`,
  large: `{"Response":false,"Error":"Quota over ${'y'.repeat(10 * 1048576)}","Data":${ROWS}}`,
  link: `{"value":${ROWS},"nextLink":"/next?${'z'.repeat(17 * 1048576)}"}`,
};
const paths: string[] = [];

void describe('a huge business field is not held', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-huge-field-', (req, res) => {
      paths.push((req.url ?? '').slice(0, 200));
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[(req.url ?? '').slice(1)]);
    });
  });
  after(() => server.close());

  void it('past 16 MiB: the request fails saying so, its rows written', async () => {
    const file = join(server.dir, 'huge.http');
    writeFileSync(file, 'GET {{base}}/huge\n');
    const out = join(server.dir, 'huge.ndjson');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(`${r.stdout}${r.stderr}`, /Error arrived too large to keep, so its messages are not shown/);
    assert.equal(readFileSync(out, 'utf8'), '{"id":1}\n{"id":2}\n{"id":3}\n');
  });

  void it('under 16 MiB: its words are read', async () => {
    const file = join(server.dir, 'large.http');
    writeFileSync(file, 'GET {{base}}/large\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(`${r.stdout}${r.stderr}`, /Quota over y/);
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /too large to keep/);
  });

  void it('a next link past 16 MiB is still a next link: no request is ever made of a stand-in', async () => {
    const file = join(server.dir, 'link.http');
    writeFileSync(file, '# @paging generic\nGET {{base}}/link\n');
    paths.length = 0;
    await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--all-pages']);
    assert.ok(!paths.some((p) => /too%20large|\(a%20value/.test(p)), `a request was made of the marker: ${JSON.stringify(paths)}`);
  });
});
