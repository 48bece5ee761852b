// `apiwb compare` skips a `# @disabled` request on both sides, as `apiwb run` does (said, not failed) and
// as the editor's Send refuses it (directives.ts): over real HTTP on 127.0.0.1, neither server receives it,
// the other requests are compared, and the sides agree.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess } from './inProcess';

function recorder(log: string[]): Server {
  return createServer((req, res) => {
    log.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: [{ code: 'one' }] }));
  });
}

void describe('apiwb compare and a # @disabled request', () => {
  const seen = { alpha: [] as string[], beta: [] as string[] };
  const servers = [recorder(seen.alpha), recorder(seen.beta)];
  let dir = '';
  let file = '';

  before(async () => {
    const [alpha, beta] = await Promise.all(servers.map(async (s) => {
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    }));
    dir = mkdtempSync(join(tmpdir(), 'apiwb-compare-disabled-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ alpha: { base_url: alpha }, beta: { base_url: beta } }));
    file = join(dir, 'items.http');
    writeFileSync(file, '# @name gone\n# @disabled\nDELETE {{base_url}}/items\n\n###\n# @name items\nGET {{base_url}}/items\n');
  });
  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('is sent to neither side, said on stderr, and the others still agree (exit 0)', async () => {
    const result = await commandInProcess(compareCommand, [file, '--env', 'alpha', '--against', 'beta', '--key', 'code']);
    assert.deepEqual([seen.alpha, seen.beta], [['/items'], ['/items']]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /apiwb compare: .*items\.http: line 2: @disabled \(httpYac\): this request is disabled, so it is not sent.*; not compared/);
    assert.ok(!result.stdout.includes('gone'), result.stdout);
  });
});
