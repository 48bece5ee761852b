// Adversarial review (invariant: no block or line of an .http file is dropped without a word). README:
// "Files written for REST Client, httpYac or the JetBrains HTTP Client open as those tools read them;
// their scripts and other constructs API Workbench does not act on are kept as written and reported,
// naming the tool, and no line is dropped without a word." httpYac's meta data lines change what a
// request does (httpyac.github.io/guide/metaData.html): `# @import ./other.http` loads another file's
// variables and named requests, `# @ref name` sends that request first, `# @disabled` does not send the
// request, `# @loop for 3` sends it three times. `apiwb run` acts on none of them and says nothing: the
// run is all ✓ and the request the user disabled (a DELETE) is sent. JetBrains' own `import` line is
// reported ("JetBrains HTTP Client import: kept as written …"); its httpYac twin is not.
// Likewise JetBrains' `# @no-redirect` (jetbrains.com/help/idea/exploring-http-syntax.html: do not follow
// redirects; src/core/httpfile/model.ts even names it as a directive "interpreted elsewhere"): the
// redirect is followed and nothing is said.
// The rule lives in src/core/httpfile/parser.ts (directives of the preamble) and foreign.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const FILE = [
  '# @import ./other.http', //                 line 1
  '# @name imported',
  'GET {{base}}/imported',
  '',
  '###',
  '# @ref imported', //                        line 6
  '# @name referring',
  'GET {{base}}/referring',
  '',
  '###',
  '# @disabled', //                            line 11
  '# @name disabledDelete',
  'DELETE {{base}}/disabled',
  '',
  '###',
  '# @loop for 3', //                          line 16
  '# @name looped',
  'POST {{base}}/looped',
  '',
].join('\n');

const LINES: ReadonlyArray<readonly [number, string]> = [[1, '@import'], [6, '@ref'], [11, '@disabled'], [16, '@loop']];

void describe('rev: httpYac and JetBrains meta data lines that change a request are not dropped without a word', () => {
  let server: LocalServer;
  const received: string[] = [];

  before(async () => {
    server = await startLocalServer('apiwb-rev-meta-', (req, res) => {
      received.push(`${req.method ?? ''} ${req.url ?? ''}`);
      if (req.url === '/moved') {
        res.writeHead(302, { Location: '/moved-here' }).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"id":1}]}');
    });
    writeFileSync(join(server.dir, 'meta.http'), FILE);
    writeFileSync(join(server.dir, 'noredirect.http'), '# @no-redirect\n# @name stay\nGET {{base}}/moved\n');
  });

  after(async () => { await server.close(); });

  void it('the parser reports each of them', () => {
    const parsed = parseHttpFile(FILE);
    for (const [line, word] of LINES) {
      assert.ok(parsed.diagnostics.some((d) => d.range.start.line === line - 1), `no diagnostic on line ${line} (${word}): ${JSON.stringify(parsed.diagnostics)}`);
    }
  });

  void it('apiwb run says something about each of them', async () => {
    const result = await runInProcess([join(server.dir, 'meta.http'), '--env', 'local', '--env-file', server.envFile]);
    const said = result.stdout + result.stderr;
    for (const [line, word] of LINES) {
      assert.ok(said.includes(`meta.http:${line}`) || said.includes(word), `nothing said about line ${line} (${word}); received ${JSON.stringify(received)}:\n${said}`);
    }
  });

  void it('what apiwb run does of each: @disabled and @loop are not sent, @no-redirect is not followed', async () => {
    received.length = 0;
    const result = await runInProcess([join(server.dir, 'meta.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.ok(!received.includes('DELETE /disabled'), `the disabled DELETE was sent: ${JSON.stringify(received)}`);
    assert.ok(!received.includes('POST /looped'), `the looped POST was sent once: ${JSON.stringify(received)}`);
    assert.match(result.stderr, /meta\.http:11: .*@disabled.*not sent/);
    assert.match(result.stdout, /looped .*not run .*meta\.http:18: stopped by \S*meta\.http:16: @loop/);
    // The refusal is said once, as the reason the request is not run, at its file:line (not also as a diagnostic before the run).
    const loop = parseHttpFile(FILE).diagnostics.find((d) => d.range.start.line === 15)!;
    const said = result.stdout + result.stderr;
    assert.equal(said.split(loop.message).length - 1, 1, `the @loop reason is not said exactly once:\n${said}`);
    // The refused @loop fails the run; the skipped @disabled does not count.
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^3 requests, 1 failed/m);
    received.length = 0;
    const stay = await runInProcess([join(server.dir, 'noredirect.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.deepEqual(received, ['GET /moved']);
    assert.match(stay.stdout, /stay .* 302 /);
  });

  void it('a directive of this product written after the request line, or in another case, stops its request', () => {
    const parsed = parseHttpFile('# @No-Redirect\nGET http://h.test/a\n# @disabled\nAccept: */*\n# @loop for 2\n');
    const errors = parsed.diagnostics.filter((d) => d.code === 'directive' && d.severity === 'error').map((d) => d.range.start.line);
    assert.deepEqual(errors, [0, 2, 4]);
  });

  void it("apiwb run does not follow a redirect of a '# @no-redirect' request without a word", async () => {
    received.length = 0;
    const result = await runInProcess([join(server.dir, 'noredirect.http'), '--env', 'local', '--env-file', server.envFile]);
    const said = result.stdout + result.stderr;
    assert.ok(!received.includes('GET /moved-here') || said.includes('noredirect.http:1') || said.includes('no-redirect'),
      `the redirect was followed and nothing said (received ${JSON.stringify(received)}):\n${said}`);
  });
});
