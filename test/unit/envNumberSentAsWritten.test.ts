// Invariant (f): bad input gets a clear error and loses nothing. An env file (or private env file) value
// written as a JSON number past a double's precision — an account or tenant id, `12345678901234567890` —
// is taken without a word and sent as another number, 12345678901234567000 (and `1.50` as 1.5, `1E2` as
// 100): the request goes to another account than the one written. The rest of the product keeps a
// number's text exactly as written (NumberText: rows, CSV, compare). The env files were read by jsonc's
// parse into doubles, then a variable's value was the double's String(). Now readEnvJson takes the values
// from the tree it parses (comments allowed), a number a double would change kept as its text
// (src/core/json/treeValue.ts), and an object variable is written with its numbers' text (jsonText).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

void describe('a number value of an env file', () => {
  let server: LocalServer;
  const urls: string[] = [];
  before(async () => {
    server = await startLocalServer('apiwb-envnumber-', (req, res) => {
      urls.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  after(() => server.close());

  void it('is sent as written, or refused in words', async () => {
    writeFileSync(server.envFile, `{ "local": { "base": "${server.origin}", "account": 12345678901234567890, "rate": 1.50 } }`);
    const file = join(server.dir, 'account.http');
    writeFileSync(file, 'GET {{base}}/accounts/{{account}}?rate={{rate}}\n');
    urls.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    if (r.code === 2) return; // refused: said, nothing sent
    assert.deepEqual(urls, ['/accounts/12345678901234567890?rate=1.50'], `sent: ${JSON.stringify(urls)} (exit ${r.code})`);
  });

  void it('with comments in the file, in the private env file, and inside an object variable', async () => {
    writeFileSync(server.envFile, `// the accounts of the test
{
  "local": {
    /* where */ "base": "${server.origin}",
    "ids": { "first": 12345678901234567891, "scale": 1E2, "small": 0.10 }, // an object variable
    "account": 1
  }
}`);
    writeFileSync(join(server.dir, 'http-client.private.env.json'), '{ "local": { // private\n "account": 98765432109876543210 } }');
    const file = join(server.dir, 'ids.http');
    writeFileSync(file, 'GET {{base}}/accounts/{{account}}?ids={{ids}}\n');
    urls.length = 0;
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
    assert.deepEqual(urls.map(decodeURIComponent), ['/accounts/98765432109876543210?ids={"first":12345678901234567891,"scale":1E2,"small":0.10}'], `sent: ${JSON.stringify(urls)}`);
  });
});
