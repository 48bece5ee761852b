// The CLI's own lines on stderr that quote what the user typed (a command's name, an option's value, the
// --out name) show it terminal-safe (terminalSafe: ESC and BEL as visible escapes), so an argument holding
// `ESC ]0;… BEL` cannot set the terminal's title; the --out line is redacted too (a secret of the run in
// the name is masked). The test's own server on 127.0.0.1 port 0; the unknown command through a child.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { commandInProcess, runInProcess } from './inProcess';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { generateCommand } from '../../src/cli/generateCommand';
import { runImportOpenApi } from '../../src/cli/importCommand';
import { startLocalServer, type LocalServer } from './localServer';

const OSC = '\u001b]0;pwned\u0007';
const RAW = /[\u001b\u0007]/;

void describe('stderr lines quoting the user\'s words: terminal-safe', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-stderr-safe-', (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":"down"}');
    });
  });
  after(() => server.close());

  void it('an unknown command: its name shown escaped', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', `x${OSC}`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 2, stderr);
    const line = stderr.split('\n')[0]!;
    assert.equal(line, "apiwb: unknown command 'x\\x1b]0;pwned\\x07'");
  });

  void it('sandbox: an option\'s value in its usage error shown escaped', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'sandbox', '--release', `x${OSC}`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 2, stderr);
    assert.equal(stderr.split('\n')[0], "apiwb sandbox: --release must be current or next, not 'x\\x1b]0;pwned\\x07'");
  });

  void it('a request file\'s warning: its name shown escaped', async () => {
    const file = join(server.dir, `req${OSC}.http`);
    writeFileSync(file, 'POST {{base}}/down\ncontent-type: text/plain\n\nhello\nGET {{base}}/down\n');
    const run = await runInProcess([file, '--env', 'local', '--env-file', server.envFile]);
    const said = run.stderr.split('\n').filter((line) => line.includes('warning:'));
    assert.ok(said.length >= 1, run.stderr);
    for (const line of said) {
      assert.doesNotMatch(line, RAW, JSON.stringify(line));
      assert.ok(line.includes('req\\x1b]0;pwned\\x07.http:'), line);
    }
  });

  void it('a usage error quoting an option\'s value: shown escaped', async () => {
    const run = await runInProcess(['x.http', '--env', 'local', '--out', join(server.dir, 'o.out'), '--format', `csv${OSC}`]);
    assert.equal(run.code, 2, run.stderr);
    assert.doesNotMatch(run.stderr, RAW, JSON.stringify(run.stderr));
    assert.ok(run.stderr.includes("not 'csv\\x1b]0;pwned\\x07'"), run.stderr);
  });

  void it('import-openapi: the --service quoted and the overlay written: names shown escaped', async () => {
    const said = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => { said.stdout += t; }, stderr: (t: string) => { said.stderr += t; } };
    assert.equal(await runImportOpenApi(['doc.json', '--service', `x${OSC}`], io), 2, said.stderr);
    assert.doesNotMatch(said.stderr, RAW, JSON.stringify(said.stderr));
    assert.ok(said.stderr.includes("(got 'x\\x1b]0;pwned\\x07')"), said.stderr);
    const doc = join(server.dir, 'openapi.json');
    writeFileSync(doc, JSON.stringify({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/v1/things': { get: { operationId: 'listThings', responses: { 200: { description: 'ok' } } } } } }));
    const out = join(server.dir, `overlay${OSC}.json`);
    assert.equal(await runImportOpenApi([doc, '--out', out], io), 0, said.stderr);
    assert.doesNotMatch(said.stdout, RAW, JSON.stringify(said.stdout));
    assert.ok(said.stdout.includes('overlay\\x1b]0;pwned\\x07.json'), said.stdout);
  });

  void it('an unknown option of generate and compare: shown escaped', async () => {
    for (const command of [generateCommand, compareCommand]) {
      const run = await commandInProcess(command, [`--x${OSC}`]);
      assert.equal(run.code, 2, run.stderr);
      assert.doesNotMatch(run.stderr, RAW, JSON.stringify(run.stderr));
      assert.ok(run.stderr.includes('--x\\x1b]0;pwned\\x07'), run.stderr);
    }
  });

  void it('--out left as it was (no row written): the name shown escaped, a secret in it masked', async () => {
    const secret = 'Hq7Wd2Lp9XvK4mZt';
    const out = join(server.dir, `rows-${secret}${OSC}.out`);
    writeFileSync(out, 'old rows\n');
    const file = join(server.dir, 'down.http');
    writeFileSync(file, 'GET {{base}}/down\n');
    const run = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', out], { APIWB_SECRET_DOWN_TOKEN: secret });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(readFileSync(out, 'utf8'), 'old rows\n');
    const said = run.stderr.split('\n').filter((line) => line.includes('left as it was'));
    assert.equal(said.length, 1, run.stderr);
    assert.doesNotMatch(said[0]!, RAW, JSON.stringify(said[0]));
    assert.ok(!said[0]!.includes(secret), `secret printed: ${said[0]}`);
    assert.ok(said[0]!.includes('\\x1b]0;pwned\\x07.out: no row was written'), said[0]);
  });
});
