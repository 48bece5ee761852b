// `apiwb run` against hostile input, from the attacker's side: a server that answers with terminal
// escapes and forged lines or with 100 000-deep rows, a .http file and an env file with self-doubling
// variables, environments named after Object's members, a 100 000-deep and a 50 MB env file. Asserts
// what the user sees: the exit code, the lines printed, the file written.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type CliResult } from './cliProcess';
import { buildCli } from './sandboxEnv';

let cli = '';
let dir = '';
let server: Server;
let base = '';

const DEEP = 100_000;
const FORGED = 'Nope\r\u001b[2K✓ payroll  GET https://bank.example/transfer  200  1 ms\n\u001b]0;pwned\u0007✓ forged line';

/** The hostile server: each path one attack. */
function answer(path: string): { status: number; body: string } {
  switch (path) {
    case '/forged': return { status: 200, body: JSON.stringify({ Success: false, Error: FORGED }) };
    case '/deep': return { status: 200, body: `{"value":[${'['.repeat(DEEP)}${']'.repeat(DEEP)}]}` };
    case '/token': return { status: 400, body: JSON.stringify({ error: 'invalid_grant', error_description: FORGED }) };
    case '/rows': return { status: 200, body: JSON.stringify({ value: [{ id: 1, name: 'first' }, { id: 2, name: 'second' }] }) };
    default: return { status: 404, body: '{}' };
  }
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const apiwb = (args: readonly string[]): Promise<CliResult> => runCli(cli, args);

void describe('apiwb run with hostile input', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-hostile-'));
    cli = await buildCli(dir);
    server = createServer((req, res) => {
      const { status, body } = answer(new URL(req.url ?? '/', 'http://x').pathname);
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    write('http-client.env.json', JSON.stringify({ hostile: { base } }));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  void it('a business-error text with ESC, OSC, CR and LF is printed escaped on its own line: no forged ✓ line, exit 1', async () => {
    const file = write('forged.http', '# @name forged\nGET {{base}}/forged\n');
    const result = await apiwb(['run', file, '--env', 'hostile', '--env-file', join(dir, 'http-client.env.json')]);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, 'no control character reaches the terminal');
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, `one line for the request and the totals: ${JSON.stringify(lines)}`);
    assert.match(lines[0]!, /^✗ forged {2}GET http:\/\/127\.0\.0\.1:\d+\/forged {2}200 .*business failure: Nope\\r\\x1b\[2K✓ payroll .*\\n\\x1b\]0;pwned\\x07✓ forged line$/);
    assert.equal(lines.filter((l) => l.startsWith('✓')).length, 0, 'nothing starts a line with the success mark');
  });

  void it('an error_description with escapes from a token endpoint is printed escaped: exit 1, no forged line', async () => {
    const env = write('signin.env.json', JSON.stringify({
      signin: { base, Security: { Auth: { hostile: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': `${base}/token`, Username: 'ann' } } } },
    }));
    const file = write('signin.http', '# @name signedIn\nGET {{base}}/rows\nAuthorization: Bearer {{$auth.token("hostile")}}\n');
    const result = await runCli(cli, ['run', file, '--env', 'signin', '--env-file', env], { APIWB_SECRET_HOSTILE_PASSWORD: 'pw-for-test' });
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    assert.equal(result.stdout.split('\n').filter((l) => l.startsWith('✓')).length, 0);
    assert.match(result.stdout, /^✗ signedIn .*invalid_grant.*Nope\\r\\x1b\[2K✓ payroll .*\\n\\x1b\]0;pwned\\x07✓ forged line/m);
  });

  void it('a 100 000-deep row fails its request with a clear message naming it; the next request runs and its rows are written', async () => {
    const file = write('deep.http', '# @name deepRows\nGET {{base}}/deep\n\n###\n# @name fineRows\nGET {{base}}/rows\n');
    const out = join(dir, 'rows.ndjson');
    const result = await apiwb(['run', file, '--env', 'hostile', '--env-file', join(dir, 'http-client.env.json'), '--out', out]);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stdout + result.stderr, /Maximum call stack/);
    assert.match(result.stdout, /^✗ deepRows {2}GET \S+\/deep {2}200 .*— the response body nests arrays and objects deeper than 512 levels, more than API Workbench reads; its rows were not read$/m);
    assert.match(result.stdout, /^✓ fineRows {2}GET \S+\/rows {2}200 {2}\d+ ms \(server \d+ ms\) {2}2 rows$/m);
    assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown), [{ id: 1, name: 'first' }, { id: 2, name: 'second' }]);
  });

  void it('the same deep row with --all-pages ends that walk with the message, not the run', async () => {
    const file = write('deep-pages.http', '# @name deepRows\nGET {{base}}/deep\n\n###\n# @name fineRows\nGET {{base}}/rows\n');
    const result = await apiwb(['run', file, '--env', 'hostile', '--env-file', join(dir, 'http-client.env.json'), '--all-pages']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /^✗ deepRows .*deeper than 512 levels/m);
    assert.match(result.stdout, /^✓ fineRows /m);
  });

  void it('self-doubling file variables: that request is not run, at once, naming the file, the line and the variable', async () => {
    const doubling = Array.from({ length: 40 }, (_, i) => `@v${i} = {{v${i + 1}}}{{v${i + 1}}}`).join('\n');
    const file = write('doubling.http', `${doubling}\n@v40 = xxxxxxxxxxxxxxxx\n\n# @name bomb\nPOST {{base}}/rows\nContent-Type: text/plain\n\n{{v0}}\n`);
    const result = await apiwb(['run', file, '--env', 'hostile', '--env-file', join(dir, 'http-client.env.json')]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /not run \(API Workbench\) at \S*doubling\.http:44: \{\{v32\}\}: The variable 'v32' is reached through more than 32 variables that refer to each other \(v0 → v1 → v2 → …\)\.$/m);

    const shallow = Array.from({ length: 24 }, (_, i) => `@w${i} = {{w${i + 1}}}{{w${i + 1}}}`).join('\n');
    const wide = write('doubling-wide.http', `${shallow}\n@w24 = xxxxxxxxxxxxxxxx\n\n# @name bomb\nPOST {{base}}/rows\n\n{{w0}}\n`);
    const sized = await apiwb(['run', wide, '--env', 'hostile', '--env-file', join(dir, 'http-client.env.json')]);
    assert.equal(sized.code, 1, sized.stderr);
    assert.match(sized.stdout, /not run \(API Workbench\) at \S*doubling-wide\.http:28: \{\{w\d+\}\}: Expanding 'w\d+' produces more than 10,000,000 characters: variables that repeat each other \(such as @a = \{\{b\}\}\{\{b\}\}\) grow without bound\.$/m);
  });

  void it('self-doubling env-file variables under an auth entry: exit 2 naming the env file, the environment and the key', async () => {
    const variables = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`v${i}`, `{{v${i + 1}}}`.repeat(8)]));
    const env = write('doubling.env.json', JSON.stringify({
      bomb: { ...variables, v12: 'x', base, ApiWorkbench: { Auth: { svc: { Type: 'Basic+X-API-Key', 'Permission Name': '{{v0}}', 'Tenant Code': 't' } } } },
    }));
    const file = write('plain.http', 'GET {{base}}/rows\n');
    const result = await apiwb(['run', file, '--env', 'bomb', '--env-file', env]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /doubling\.env\.json: environment 'bomb', key 'ApiWorkbench\.Auth\.svc\.Permission Name': its \{\{variables\}\} expand to more than 10,000,000 characters/);
  });

  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    void it(`--env ${name} is an unknown environment (exit 2), not one of Object's members`, async () => {
      const file = write('plain.http', 'GET {{base}}/rows\n');
      const result = await apiwb(['run', file, '--env', name, '--env-file', join(dir, 'http-client.env.json')]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, new RegExp(`no environment named '${name.replace(/[$]/g, '\\$&')}' \\(environments in this file: 'hostile'\\)`));
    });
  }

  void it('a 100 000-deep env file: exit 2 with the file, line and column, no stack overflow', async () => {
    const env = write('deep.env.json', `{"deep": {"base": "${base}", "x": ${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}`);
    const file = write('plain.http', 'GET {{base}}/rows\n');
    const result = await apiwb(['run', file, '--env', 'deep', '--env-file', env]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /deep\.env\.json:1:\d+: the JSON nests arrays and objects deeper than 512 levels/);
    assert.doesNotMatch(result.stderr, /Maximum call stack/);
  });

  void it('a 50 MB env file: exit 2 with its size, before it is parsed', async () => {
    const env = write('huge.env.json', JSON.stringify({ huge: { base, filler: 'x'.repeat(50_000_000) } }));
    const file = write('plain.http', 'GET {{base}}/rows\n');
    const result = await apiwb(['run', file, '--env', 'huge', '--env-file', env]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /huge\.env\.json: the file is 50\.0 MB; an env file holds variables and auth entries, and API Workbench reads env files up to 5 MB/);
  });
});
