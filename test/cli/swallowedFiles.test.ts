// `apiwb run` over several files, one of them all swallowed by an unclosed block (`{{`, `/*`, `< {%` at the
// top): that file is named not run with its line and reason, the other files' requests are sent, and the
// run exits 1. With --name, a file without that name is no problem of the run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

void describe('apiwb run: a file whose requests an unclosed block swallowed', () => {
  let server: LocalServer;
  const received: string[] = [];
  let base = '';

  before(async () => {
    server = await startLocalServer('apiwb-swallowed-', (request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
    const folder = join(server.dir, 'suite');
    mkdirSync(folder);
    const url = '{{base}}';
    const files: Record<string, string> = {
      'a-script.http': `{{\n  const x = 1;\n\nGET ${url}/after-unclosed\n`,
      'b-comment.http': `/* open\n\nGET ${url}/after-comment\n`,
      'c-prescript.http': `< {%\n  client.log(1);\n\nGET ${url}/after-prescript\n`,
      'fine.http': `# @name fine\nGET ${url}/fine\n`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
    base = folder;
  });
  after(async () => { await server.close(); });

  const run = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    received.length = 0;
    return runInProcess([...args, '--env', 'local', '--env-file', server.envFile]);
  };

  for (const [name, reason] of [['a-script.http', /not closed by '\}\}'/], ['b-comment.http', /not closed by '\*\/'/], ['c-prescript.http', /not closed by '%\}'/]] as const) {
    void it(`${name} with fine.http: ${name} is said not run (file, line, reason), fine.http runs, exit 1`, async () => {
      const result = await run([join(base, name), join(base, 'fine.http')]);
      assert.deepEqual(received, ['GET /fine'], result.stdout + result.stderr);
      const line = result.stdout.split('\n').find((l) => l.includes('not run (') && l.includes(`${name}:1: `));
      assert.ok(line, result.stdout);
      assert.match(line, reason);
      assert.equal(result.code, 1, result.stdout + result.stderr);
    });
  }

  void it('a run of swallowed files only: exit 2, and the words say why each has no request', async () => {
    const result = await run([join(base, 'a-script.http'), join(base, 'b-comment.http')]);
    assert.deepEqual(received, []);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /no requests in \S*a-script\.http, \S*b-comment\.http; \S*a-script\.http:1: line 1: .*not closed by '\}\}'.*; \S*b-comment\.http:1: line 1: .*not closed by '\*\/'/);
  });

  void it('a folder run names every swallowed file; with --name the others are no problem', async () => {
    const all = await run([base]);
    assert.deepEqual(received, ['GET /fine'], all.stdout + all.stderr);
    for (const name of ['a-script.http', 'b-comment.http', 'c-prescript.http']) assert.ok(all.stdout.includes(`${name}:1: `), `${name}\n${all.stdout}`);
    assert.equal(all.code, 1);
    const named = await run([base, '--name', 'fine']);
    assert.deepEqual(received, ['GET /fine'], named.stdout + named.stderr);
    assert.ok(!named.stdout.includes('not run ('), named.stdout);
    assert.equal(named.code, 0, named.stdout + named.stderr);
  });
});
