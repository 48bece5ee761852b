// Invariant C: no line of an `.http` file is changed in meaning without a word, in every reader of it.
// `# @no-redirect` is a directive API Workbench reads (READ_DIRECTIVES: "do not follow redirects"); `apiwb
// run` honours it. `apiwb generate` drops it unsaid: the js-fetch snippet (fetch follows by default) and
// the python-requests snippet (requests follows by default) follow the redirect, exit 0, nothing on stderr.
// A small server on 127.0.0.1: /start answers 302 to /elsewhere, which counts its hits.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { generated } from './generateProcess';
import { startLocalServer, type LocalServer } from './localServer';

const exec = promisify(execFile);
let elsewhere = 0;

void describe('apiwb generate honours # @no-redirect, or says it does not', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-rev-noredirect-', (req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { Location: '/elsewhere' }).end();
        return;
      }
      elsewhere++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"moved":true}');
    });
    file = join(local.dir, 'nr.http');
    writeFileSync(file, '# @name start\n# @no-redirect\nGET {{base}}/start\n');
  });
  after(() => local.close());

  const cases: [string, string, string[]][] = [
    ['js-fetch', 'snippet.mjs', [process.execPath]],
    ['python-requests', 'snippet.py', ['python3']],
  ];
  for (const [lang, name, runner] of cases) {
    void it(`${lang}: the redirect is not followed, or stderr says the directive is not honoured`, async () => {
      const made = await generated([file, '--name', 'start', '--lang', lang, '--env-file', local.envFile, '--env', 'local'], {});
      assert.equal(made.code, 0, made.stderr);
      if (/no-redirect/.test(made.stderr)) return;
      const path = join(local.dir, name);
      writeFileSync(path, made.stdout);
      elsewhere = 0;
      await exec(runner[0]!, [path]).catch(() => undefined);
      assert.equal(elsewhere, 0, `${lang}: the generated code followed the redirect to /elsewhere`);
    });
  }
});
