// A body whose rows field is given twice (`items=value` with "value" twice, or a key of an items= path twice)
// cannot be read as the server meant it: the stream has read the first copy's rows before the second
// arrives, so it is refused, and a body held whole is read as a larger one (README: the held budget). What
// the line counts must agree with and without --out: never a count of rows "neither is taken" by.
// A server of the test's own on 127.0.0.1 port 0; `apiwb run` in process (revC's case).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from './inProcess';
import { padded, printedRows } from './outFileRows';
import { startLocalServer, type LocalServer } from './localServer';

const CASES: Record<string, { body: string; items: string }> = {
  'items-field': { body: `{"value":[${padded(0, 10)}],"value":[{"id":9}]}`, items: 'value' },
  'items-path': { body: `{"r":{"rows":[${padded(0, 10)}],"rows":[{"id":9}]}}`, items: 'r.rows' },
  'items-path-outer': { body: `{"r":{"rows":[${padded(0, 10)}]},"r":{"rows":[{"id":9}]}}`, items: 'r.rows' },
};

void describe('a body with its rows field given twice: counted alike with and without --out', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-rows-twice-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(CASES[(req.url ?? '').slice(1)]!.body);
    });
  });
  after(() => server.close());

  for (const [name, c] of Object.entries(CASES)) {
    void it(`${name}: refused or read, the line without --out counts the rows --out counts, never rows "neither is taken"`, async () => {
      const file = join(server.dir, `${name}-count.http`);
      writeFileSync(file, `# @paging generic items=${c.items}\nGET {{base}}/${name}\n`);
      const out = join(server.dir, `${name}-count.ndjson`);
      const withOut = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out]);
      const without = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
      assert.equal(without.code, withOut.code, `${withOut.stdout}${without.stdout}`);
      assert.equal(printedRows(without.stdout), printedRows(withOut.stdout), `without --out:\n${without.stdout}\nwith --out:\n${withOut.stdout}`);
    });
  }
});
