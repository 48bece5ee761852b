// `apiwb run` over the other tools' corpus (test/fixtures/other-tools) against a loopback server of the
// test's own: the server receives exactly the requests the corpus lists as sent (those after every kept
// construct too), each request the corpus lists as not run has its own line naming its file, line and
// tool, and the run exits 1 when one is not run (0 when all ran and passed). The JSON report carries the
// not-run requests with their file and line.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const corpus = join(import.meta.dirname, '../fixtures/other-tools');
const names = readdirSync(corpus).filter((f) => f.endsWith('.http'));
interface Expected { sent: string[]; notRun: Array<{ line: number; tool: string }> }
const expectedOf = (name: string): Expected => JSON.parse(readFileSync(join(corpus, name.replace(/\.http$/, '.expected.json')), 'utf8')) as Expected;

void describe('apiwb run: files of other tools', () => {
  let server: LocalServer;
  const received: Array<{ line: string; headers: IncomingHttpHeaders }> = [];
  let port = 0;

  before(async () => {
    server = await startLocalServer('apiwb-other-tools-', (request, response) => {
      received.push({ line: `${request.method} ${request.url}`, headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"name":"apiwb"}');
    });
    port = Number(new URL((JSON.parse(readFileSync(server.envFile, 'utf8')) as { local: { base: string } }).local.base).port);
    writeFileSync(server.envFile, JSON.stringify({ local: { base: `http://127.0.0.1:${port}`, hostport: `127.0.0.1:${port}`, segment: 'seg' } }));
    for (const name of names) copyFileSync(join(corpus, name), join(server.dir, name));
  });
  after(async () => { await server.close(); });

  const run = async (name: string, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string; lines: string[] }> => {
    received.length = 0;
    const result = await runInProcess([join(server.dir, name), '--env', 'local', '--env-file', server.envFile, ...extra]);
    return { ...result, lines: received.map((r) => r.line) };
  };

  for (const name of names) {
    void it(`${name}: the server gets the requests the corpus lists, the others are said not run with file, line and tool`, async () => {
      const expected = expectedOf(name);
      const result = await run(name);
      assert.deepEqual(result.lines, expected.sent, result.stdout + result.stderr);
      const notRunLines = result.stdout.split('\n').filter((l) => l.includes('not run ('));
      assert.equal(notRunLines.length, expected.notRun.length, result.stdout);
      for (const entry of expected.notRun) {
        assert.ok(notRunLines.some((l) => l.startsWith('✗') && l.includes(`not run (${entry.tool}) at `) && l.includes(`${name}:${entry.line}: `)), `${name}:${entry.line} not run by ${entry.tool}\n${result.stdout}`);
      }
      assert.equal(result.code, expected.notRun.length > 0 ? 1 : 0, result.stdout + result.stderr);
    });
  }

  void it('a header spread of a file variable is sent as headers; a path-only line goes to its Host header', async () => {
    await run('header-spread.http');
    const known = received.find((r) => r.line === 'GET /spread/known');
    assert.equal(known?.headers['x-spread'], 'from-file-variable');
    assert.equal(known?.headers['x-count'], '2');
    await run('host-and-path.http');
    assert.equal(received[0]?.headers.host, `127.0.0.1:${port}`);
  });

  void it('the not-run request is in the JSON report with its file and line, failed', async () => {
    const report = join(server.dir, 'report.json');
    const result = await run('host-missing.http', ['--reporter', 'json', '--report', report]);
    assert.equal(result.code, 1);
    const requests = (JSON.parse(readFileSync(report, 'utf8')) as { requests: Array<{ file: string; line: number; ok: boolean; problem?: string }> }).requests;
    const notRun = requests.find((r) => r.problem?.startsWith('not run'));
    assert.ok(notRun, JSON.stringify(requests));
    assert.ok(notRun.file.endsWith('host-missing.http'));
    assert.equal(notRun.line, 2);
    assert.equal(notRun.ok, false);
    assert.deepEqual(requests.filter((r) => r.ok).map((r) => r.line), [5]);
  });

  void it('an unclosed script block before the first ### is the file\'s problem: said with its line, the requests after it run', async () => {
    const file = join(server.dir, 'unclosed.http');
    writeFileSync(file, '{{\n  exports.a = 1;\n\n###\nGET {{base}}/after-unclosed\n');
    received.length = 0;
    const result = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    assert.equal(result.code, 1);
    assert.deepEqual(received.map((r) => r.line), ['GET /after-unclosed']);
    assert.match(result.stdout, /unclosed\.http:1: line 1: httpYac script block is not closed by '\}\}'/);
  });

  void it('a file with a broken request no longer stops the whole run: the other files and requests run', async () => {
    received.length = 0;
    const result = await runInProcess([join(server.dir, 'httpyac-scripts.http'), join(server.dir, 'request-kinds.http'), '--env', 'local', '--env-file', server.envFile]);
    assert.equal(result.code, 1);
    assert.deepEqual(received.map((r) => r.line), [...expectedOf('httpyac-scripts.http').sent, ...expectedOf('request-kinds.http').sent]);
    assert.match(result.stdout, /gRPC request \(GRPC, httpYac\): not supported/);
    assert.match(result.stdout, /stopped by \S*httpyac-scripts\.http:23: The assertion needs a comparison/);
  });
});
