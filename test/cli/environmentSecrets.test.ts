// Values a request reads from the process environment ({{$processEnv X}}, {{$env.X}}) or a .env file
// ({{$dotenv X}}) are secrets (issue 30, with issue 29's rule): bound to the origins of the environment in
// use, so the built `apiwb run` sends them to the environment's server (127.0.0.1, one port) and refuses a
// request carrying them to another origin (another port), which receives nothing; never printed, nor in
// the --out rows or a report, even when the server echoes them back. A value already held keeps its own
// binding (an APIWB_SECRET_* value no auth entry reads goes nowhere). A missing variable or a malformed
// use is an error naming it, and nothing is sent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from './sandboxEnv';
import { runCli } from './cliProcess';

interface Seen { readonly url: string; readonly headers: IncomingHttpHeaders }

const PROCESS_SECRET = 'proc-env-secret-7f3a9c';
const DOTENV_SECRET = 'dotenv-secret-51be20';
const HELD_NOWHERE = 'apiwb-unused-secret-c0ffee';

void describe('process environment and .env values are bound secrets (apiwb run over loopback)', () => {
  let dir: string;
  let cli: string;
  const servers: Server[] = [];
  const home: Seen[] = [];
  const other: Seen[] = [];
  let homeBase = '';
  let otherBase = '';

  /** A server that echoes the X-Key header it received in its JSON answer (an echoed secret must be masked). */
  async function start(log: Seen[]): Promise<string> {
    const server = createServer((req, res) => {
      log.push({ url: req.url ?? '', headers: req.headers });
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ items: [{ id: 1, echoed: req.headers['x-key'] ?? null }] }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-envsecrets-'));
    homeBase = await start(home);
    otherBase = await start(other);
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: homeBase, keyName: 'GQLVARS_KEY' } }));
    writeFileSync(join(dir, '.env'), `DOT_KEY=${DOTENV_SECRET}\n`);
    cli = await buildCli(dir);
  });

  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(name: string, text: string, extra: readonly string[] = []): Promise<{ code: number; output: string; files: string }> {
    const file = join(dir, `${name}.http`);
    writeFileSync(file, text);
    home.length = 0;
    other.length = 0;
    const out = join(dir, `${name}.ndjson`);
    const report = join(dir, `${name}.report.json`);
    const r = await runCli(cli, ['run', file, '--env', 'local', '--env-file', join(dir, 'http-client.env.json'), '--out', out, '--reporter', 'json', '--report', report, ...extra],
      { GQLVARS_KEY: PROCESS_SECRET, APIWB_SECRET_UNUSED: HELD_NOWHERE });
    const read = (path: string): string => { try { return readFileSync(path, 'utf8'); } catch { return ''; } };
    return { code: r.code, output: r.stdout + r.stderr, files: read(out) + read(report) };
  }

  function assertNotShown(result: { output: string; files: string }, secret: string): void {
    assert.ok(!result.output.includes(secret), `the value appeared in the CLI output:\n${result.output}`);
    assert.ok(!result.files.includes(secret), 'the value appeared in --out or the report');
  }

  for (const [form, use, secret] of [
    ['$processEnv', '{{$processEnv GQLVARS_KEY}}', PROCESS_SECRET],
    ['$processEnv %name (the name from the environment)', '{{$processEnv %keyName}}', PROCESS_SECRET],
    ['$env.NAME', '{{$env.GQLVARS_KEY}}', PROCESS_SECRET],
    ['$dotenv', '{{$dotenv DOT_KEY}}', DOTENV_SECRET],
  ] as const) {
    void it(`${form}: sent to the environment's origin, echoed back and masked everywhere`, async () => {
      const r = await run('home', `GET {{base}}/items\nX-Key: ${use}\n`);
      assert.equal(r.code, 0, r.output);
      assert.equal(home.length, 1);
      assert.equal(home[0]!.headers['x-key'], secret, 'the server got the value');
      assertNotShown(r, secret);
    });

    void it(`${form}: refused to another origin, which receives nothing`, async () => {
      const r = await run('other', `GET ${otherBase}/steal\nX-Key: ${use}\n`);
      assert.equal(other.length, 0, 'the other origin received a request');
      assert.notEqual(r.code, 0);
      assert.match(r.output, new RegExp(`not sent to ${otherBase.replace(/[.:/]/g, '\\$&')}: header X-Key carries the value of \\{\\{\\$`));
      assertNotShown(r, secret);
    });
  }

  void it('an APIWB_SECRET_* value no auth entry reads keeps its binding: read through $processEnv it goes nowhere, not even home', async () => {
    const r = await run('held', 'GET {{base}}/items\nX-Key: {{$processEnv APIWB_SECRET_UNUSED}}\n');
    assert.equal(home.length, 0);
    assert.notEqual(r.code, 0);
    assert.match(r.output, /belongs to no origin/);
    assertNotShown(r, HELD_NOWHERE);
  });

  void it('a variable the process environment lacks: not sent, the words name it', async () => {
    const r = await run('missing', 'GET {{base}}/items\nX-Key: {{$processEnv GQLVARS_NOT_SET}}\n');
    assert.equal(home.length, 0);
    assert.notEqual(r.code, 0);
    assert.match(r.output, /the process environment has no variable GQLVARS_NOT_SET/);
  });

  void it('a malformed dynamic variable: that request is not sent (exit 1), the words name it', async () => {
    const r = await run('malformed', 'GET {{base}}/items?since={{$timestamp -1 x}}\n\n###\nGET {{base}}/items?who={{$nosuch}}\n');
    assert.equal(home.length, 0);
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /not run \(API Workbench\) at \S*malformed\.http:1: \{\{\$timestamp -1 x\}\}: '\$timestamp': the offset '-1 x' is not '<integer> <unit>'/);
    assert.match(r.output, /not run \(API Workbench\) at \S*malformed\.http:4: \{\{\$nosuch\}\}: '\$nosuch' is not a dynamic variable/);
  });

  void it('{{$timestamp -1 d}} is a day ago, not now', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await run('dayago', 'GET {{base}}/items?since={{$timestamp -1 d}}\n');
    const after = Math.floor(Date.now() / 1000);
    assert.equal(r.code, 0, r.output);
    const since = Number(new URL(home[0]!.url, homeBase).searchParams.get('since'));
    assert.ok(since >= before - 86_400 && since <= after - 86_400, `since=${since}, now=${before}`);
  });
});
