// `apiwb compare` sets aside a `# @disabled` request as `apiwb run` does (src/cli/notRun.ts): it is sent on
// neither side, and the comparison says so before anything is sent; the other request of the file is
// compared. Over real HTTP on 127.0.0.1: the server counts what each side asked for.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const REQUESTS = `### Kept
# @name kept
GET {{base}}/items

### Left out
# @name leftOut
# @disabled
GET {{base}}/secret-items
`;

void describe('compare honours # @disabled', () => {
  let server: LocalServer;
  const seen: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-compare-disabled-', (req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"id":1}]}');
    });
    const env = { local: { base: server.origin }, other: { base: server.origin } };
    writeFileSync(server.envFile, JSON.stringify(env));
  });

  after(async () => { await server.close(); });

  void it('sends the disabled request on neither side and says it', async () => {
    const httpFile = join(server.dir, 'two.http');
    writeFileSync(httpFile, REQUESTS);
    const result = await commandInProcess(compareCommand, [httpFile, '--env', 'local', '--against', 'other', '--env-file', server.envFile, '--out', join(server.dir, 'report.json')]);
    const all = result.stdout + result.stderr;
    assert.equal(result.code, 0, all);
    assert.deepEqual(seen.filter((url) => url.startsWith('/secret-items')), [], `the disabled request was sent: ${seen.join(', ')}`);
    assert.equal(seen.filter((url) => url.startsWith('/items')).length, 2, `the kept request is sent once a side: ${seen.join(', ')}`);
    assert.match(result.stderr, /apiwb compare: .*two\.http:7: .*@disabled.*not sent/, all);
  });
});
