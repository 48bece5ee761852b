// Rule: `apiwb generate` keeps a request's `# @no-redirect` (READ_DIRECTIVES: do not follow redirects, as
// `apiwb run` does) in every snippet language, or says it does not. Each language either sets its
// client's no-follow option in the code (fetch `redirect: 'manual'`, requests `allow_redirects=False`,
// C# `AllowAutoRedirect = false`, Go `http.ErrUseLastResponse`), prints a client that never follows (curl
// without --location, Node's http.request, Python's http.client, Java's HttpClient.newHttpClient()), or
// says on stderr that the generated code follows redirects (src/core/codegen/noRedirect.ts).
// A small server on 127.0.0.1: /start answers 302 to /elsewhere, which counts its hits; the js-fetch and
// python-requests snippets are run against it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { SNIPPET_IDS } from '../../src/core/codegen';
import { generated } from './generateProcess';
import { startLocalServer, type LocalServer } from './localServer';

const exec = promisify(execFile);
let elsewhere = 0;

/** What each language's code holds that keeps it from following a redirect; null: stderr must say it follows. */
const NO_FOLLOW: Record<string, RegExp | null> = {
  curl: /^curl --request GET/m,
  'js-fetch': /redirect: 'manual'/,
  node: /http\.request\(/,
  'python-requests': /allow_redirects=False/,
  python: /http\.client\.HTTPConnection/,
  csharp: /AllowAutoRedirect = false/,
  java: /HttpClient\.newHttpClient\(\)/,
  go: /CheckRedirect: .*http\.ErrUseLastResponse/,
  powershell: null,
};

void describe('apiwb generate honours # @no-redirect, or says it does not', () => {
  let local: LocalServer;
  let file = '';
  before(async () => {
    local = await startLocalServer('apiwb-noredirect-', (req, res) => {
      if (req.url === '/start') {
        res.writeHead(302, { Location: '/elsewhere' }).end();
        return;
      }
      elsewhere++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"moved":true}');
    });
    file = join(local.dir, 'nr.http');
    writeFileSync(file, '# @name start\n# @no-redirect\nGET {{base}}/start\n\n###\n# @name follow\nGET {{base}}/start\n');
  });
  after(() => local.close());
  const generate = (name: string, lang: string) => generated([file, '--name', name, '--lang', lang, '--env-file', local.envFile, '--env', 'local'], {});

  void it('every snippet language is held here', () => {
    assert.deepEqual(Object.keys(NO_FOLLOW).sort(), [...SNIPPET_IDS].sort());
  });
  for (const lang of SNIPPET_IDS) {
    void it(`${lang}: the code does not follow, or stderr and the comment say it does`, async () => {
      const made = await generate('start', lang);
      assert.equal(made.code, 0, made.stderr);
      const option = NO_FOLLOW[lang];
      if (option) {
        assert.match(made.stdout, option);
        assert.doesNotMatch(made.stdout, /--location|(^|\s)-L\s/);
        assert.equal(made.stderr, '');
      } else {
        assert.match(made.stderr, /follows redirects although the request says # @no-redirect/);
        assert.match(made.stdout, /follows redirects although the request says # @no-redirect/);
      }
    });
  }

  const runs: [string, string, string][] = [['js-fetch', 'snippet.mjs', process.execPath], ['python-requests', 'snippet.py', 'python3']];
  for (const [lang, name, runner] of runs) {
    void it(`${lang}: run, the redirect is not followed; without the directive it is`, async () => {
      const path = join(local.dir, name);
      writeFileSync(path, (await generate('start', lang)).stdout);
      elsewhere = 0;
      await exec(runner, [path]).catch(() => undefined);
      assert.equal(elsewhere, 0, `${lang}: the generated code followed the redirect to /elsewhere`);
      const plain = await generate('follow', lang);
      assert.equal(plain.stderr, '');
      writeFileSync(path, plain.stdout);
      await exec(runner, [path]).catch(() => undefined);
      assert.equal(elsewhere, 1, `${lang}: without # @no-redirect the code follows (as apiwb run does)`);
    });
  }
});
