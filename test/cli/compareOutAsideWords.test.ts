// `apiwb compare --out` over an old file, stopped by SIGINT once its differences file is being written,
// says where the old file is kept as `apiwb run --out` does (reporters/outputSink.ts fileNote: the one
// way the CLI says a file's note): through the Redactor and terminalSafe, so an --out name holding a
// secret of the run is masked. The test's own server on 127.0.0.1 port 0: side A and side B answer the
// first request with rows that all differ (more differences than the writer holds in memory), then the
// second request stalls; the CLI as a child (src/cli/main.ts through tsx), as outAsideStopWords.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { outputStoppedAtAside } from './outAside';
import { startLocalServer, type LocalServer } from './localServer';

void describe('compare --out aside: the stop line in redacted, terminal-safe words', () => {
  let server: LocalServer;
  let stalled: (() => void) | undefined;
  before(async () => {
    server = await startLocalServer('apiwb-compare-aside-', (req, res) => {
      const side = (req.url ?? '').startsWith('/a/') ? 'a' : 'b';
      if ((req.url ?? '').endsWith('/stall')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"items":[');
        stalled?.();
        return;
      }
      const items = Array.from({ length: 2000 }, (_, id) => ({ id, value: `${side}-${id}-${'x'.repeat(60)}` }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items }));
    });
    writeFileSync(server.envFile, JSON.stringify({ local: { base: `${server.origin}/a` }, other: { base: `${server.origin}/b` } }));
  });
  after(() => server.close());

  void it('a --out name holding a secret of the run (APIWB_SECRET_*): masked in the line saying where the old file is kept', async () => {
    const secret = 'Hk4nR7sQ2wYt9VbZ';
    const out = join(server.dir, `diff-${secret}.ndjson`);
    const file = join(server.dir, 'two.http');
    writeFileSync(file, '# @name rows\nGET {{base}}/rows\n\n###\n# @name stall\nGET {{base}}/stall\n');
    writeFileSync(out, 'old differences\n');
    const args = ['compare', file, '--env', 'local', '--against', 'other', '--env-file', server.envFile, '--key', 'id', '--out', out];
    const output = await outputStoppedAtAside(args, out, new Promise<void>((resolve) => { stalled = resolve; }), { APIWB_SECRET_STALL_TOKEN: secret });
    const said = output.split('\n').filter((line) => line.includes('is kept at'));
    assert.equal(said.length, 1, JSON.stringify(output));
    assert.ok(!output.includes(secret), `secret printed: ${JSON.stringify(said)}`);
    assert.match(said[0]!, /^apiwb: stopped: the file that was at .*diff-.* before this run is kept at /);
  });
});
