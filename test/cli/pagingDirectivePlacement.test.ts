// Adversarial review (invariants: no line dropped without a word; no "complete" with rows missing).
// A `# @paging …` directive written where the parser does not read directives — after the request line,
// among the headers — or as `# @Paging` is ignored without a word: `apiwb run --all-pages` walks no
// pages, prints "✓ … 1 row" and exits 0, while the body's `next_page` (the field the directive names)
// leads to two more pages. A misspelt key of the same directive (`nxt=`) is refused, naming the line;
// these are not. The preamble/headers split is src/core/httpfile/parser.ts, the directive
// src/core/paging/directive.ts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';

const CASES: ReadonlyArray<readonly [string, string, number]> = [
  ['afterRequestLine', '# @name afterRequestLine\nGET {{base}}/pages\n# @paging generic next=next_page\nAccept: application/json\n', 3],
  ['capitalised', '# @Paging generic next=next_page\n# @name capitalised\nGET {{base}}/pages\n', 1],
];

void describe('rev: a paging directive the parser does not take is not ignored without a word', () => {
  let server: LocalServer;

  before(async () => {
    server = await startLocalServer('apiwb-rev-paging-directive-', (req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      res.writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ items: [{ id: page }], next_page: page < 3 ? `/pages?page=${page + 1}` : null }));
    });
    for (const [name, text] of CASES) writeFileSync(join(server.dir, `${name}.http`), text);
  });

  after(async () => { await server.close(); });

  // What apiwb run does of them: the request is refused (not run rather than walked as one page), naming
  // the file:line once, as the reason it is not run.
  for (const [name, , line] of CASES) {
    void it(`${name}: the request is not run, and ${name}.http:${line} says why, once`, async () => {
      const result = await runInProcess([join(server.dir, `${name}.http`), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.match(result.stdout, new RegExp(`not run .* stopped by \\S*${name}\\.http:${line}: @[Pp]aging`));
      const said = result.stdout + result.stderr;
      assert.equal(said.split(/is not read/).length - 1, 1, `the refusal is not said exactly once:\n${said}`);
    });
  }

  // Two lines that each stop the request: the first is the reason it is not run, the other is still said
  // (before the run, at its file:line), never dropped for being the second.
  void it('a request with two refusing lines: the first is the reason, the second is said before the run', async () => {
    writeFileSync(join(server.dir, 'twoRefusals.http'), '# @loop for 2\n# @name twoRefusals\nGET {{base}}/pages\n# @paging generic next=next_page\n');
    const result = await runInProcess([join(server.dir, 'twoRefusals.http'), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /not run .* stopped by \S*twoRefusals\.http:1: @loop/);
    assert.match(result.stderr, /twoRefusals\.http:4: error: @paging after the request line is not read/);
    assert.doesNotMatch(result.stderr, /@loop/);
  });

  for (const [name, , line] of CASES) {
    void it(`${name}: walks the 3 pages, or says something about line ${line}`, async () => {
      const result = await runInProcess([join(server.dir, `${name}.http`), '--env', 'local', '--env-file', server.envFile, '--all-pages']);
      const said = result.stdout + result.stderr;
      assert.ok(/\b3 rows\b/.test(result.stdout) || said.includes(`${name}.http:${line}`), `the directive was ignored without a word (exit ${result.code}):\n${said}`);
    });
  }
});
