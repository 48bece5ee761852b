// No output of `apiwb run` harms an input (issue 29 item 4), against a small server on 127.0.0.1 (port 0),
// the real runCommand in process. An --out or --report naming each kind of input (the .http file, the env
// file, the private env file, an overlay) is refused with exit 2, before anything is sent, the input
// byte for byte as it was; so are inputs nobody listed (a `< body` file, a hard link to the env file, the
// --out given again as --report). A link at the output is refused and named; a link planted where the
// record's temporary file used to be is never written through; yesterday's export survives a run that
// fails at sign-in; a folder and a full disk are said in words, the full disk with the exact command that
// resumes, which then completes the walk with every row once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';

const received: string[] = [];
let local: LocalServer | undefined;
/** Characters of padding in each row (the full-disk walk writes large rows). */
let pad = 0;

function answer(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  received.push(`${req.method ?? ''} ${url.pathname}${url.search}`);
  if (url.pathname === '/token') {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end('{"error":"invalid_grant","error_description":"wrong password"}');
    return;
  }
  const n = Number(url.searchParams.get('page') ?? 1);
  const rows = Array.from({ length: 3 }, (_, i) => ({ id: (n - 1) * 3 + i + 1, text: 'x'.repeat(pad) }));
  res.writeHead(200, { 'Content-Type': 'application/json', 'X-Pagination-Page': String(n), 'X-Pagination-Total-Pages': '4', 'X-Pagination-Total-Results': '12' });
  res.end(JSON.stringify(rows));
}

void describe('outputs never harm inputs', () => {
  let dir = '';
  let envFile = '';
  let httpFile = '';
  let base = '';
  const inputs: Record<string, string> = {};

  before(async () => {
    local = await startLocalServer('apiwb-untrusted-out-', answer);
    ({ dir, envFile } = local);
    base = (JSON.parse(readFileSync(envFile, 'utf8')) as { local: { base: string } }).local.base;
    writeFileSync(envFile, JSON.stringify({
      local: { base, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{base}}/token', Username: 'u@test' } } } },
    }));
    httpFile = join(dir, 'walk.http');
    writeFileSync(httpFile, ['# @name walk', '# @paging page-headers', 'GET {{base}}/items', '', '###', '# @name posted', 'POST {{base}}/echo', 'Content-Type: application/json', '', '< ./body.json', ''].join('\n'));
    writeFileSync(join(dir, 'body.json'), '{"kept": true}\n');
    writeFileSync(join(dir, 'http-client.private.env.json'), '{"local": {}}\n');
    writeFileSync(join(dir, 'overlay.json'), JSON.stringify({ apiWorkbenchOverlay: 1, source: 'test', service: 'fundraising', operations: [] }));
    Object.assign(inputs, {
      '.http file': httpFile,
      'env file': envFile,
      'private env file': join(dir, 'http-client.private.env.json'),
      overlay: join(dir, 'overlay.json'),
      'body file (< ./body.json, nobody listed it)': join(dir, 'body.json'),
    });
  });
  after(() => local?.close());

  const run = (extra: readonly string[], env: Record<string, string> = {}): ReturnType<typeof runInProcess> =>
    runInProcess([httpFile, '--env', 'local', '--env-file', envFile, '--overlay', join(dir, 'overlay.json'), ...extra], env);

  for (const option of ['--out', '--report'] as const) {
    for (const kind of ['.http file', 'env file', 'private env file', 'overlay', 'body file (< ./body.json, nobody listed it)']) {
      void it(`${option} naming the ${kind}: exit 2, nothing sent, the file as it was`, async () => {
        const path = inputs[kind]!;
        const before = readFileSync(path);
        const sent = received.length;
        const r = await run(option === '--out' ? ['--all-pages', '--out', path, '--format', 'ndjson'] : ['--reporter', 'json', '--report', path]);
        assert.equal(r.code, 2, r.stdout + r.stderr);
        assert.match(r.stderr, new RegExp(`${option} .* is the ${kind.split(' (')[0]!.replace('.', '\\.')} .*an input of this run: an output never overwrites an input`));
        assert.deepEqual(readFileSync(path), before, 'the input is byte for byte as it was');
        assert.equal(received.length, sent, 'nothing was sent');
      });
    }
  }

  void it('a hard link to the env file (another path, the same file) is refused: identity, not spelling', async () => {
    const link = join(dir, 'innocent-name.ndjson');
    linkSync(envFile, link);
    const before = readFileSync(envFile);
    const r = await run(['--all-pages', '--out', link]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--out .*innocent-name\.ndjson is the env file/);
    assert.deepEqual(readFileSync(envFile), before);
    rmSync(link);
  });

  void it('--report naming the --out file is refused: each output its own file', async () => {
    const out = join(dir, 'same.json');
    const r = await run(['--out', out, '--reporter', 'json', '--report', out]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--report .*same\.json is the file --out writes too/);
  });

  void it('an --out that is a symbolic link is refused and named; its target untouched', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const out = join(dir, 'linked.ndjson');
    symlinkSync(victim, out);
    const r = await run(['--all-pages', '--out', out]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--out .*linked\.ndjson is a symbolic link \(to .*victim\.txt\)/);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
    rmSync(out);
  });

  void it("a link planted at the record's old temporary name or at the record itself is never written through", async () => {
    const victim = join(dir, 'victim2.txt');
    writeFileSync(victim, 'precious\n');
    const out = join(dir, 'planted.ndjson');
    symlinkSync(victim, `${out}.apiwb-resume.json.tmp`);
    const walk = await runInProcess([httpFile, '--env', 'local', '--env-file', envFile, '--name', 'walk', '--all-pages', '--max-pages', '2', '--out', out]);
    assert.equal(walk.code, 1, walk.stdout + walk.stderr);
    assert.match(walk.stdout, /cut short/);
    assert.equal(readFileSync(out, 'utf8').split('\n').filter(Boolean).length, 6, 'two pages kept');
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n', 'the link at the .tmp name was not followed');
    // A link in the record's own place: refused before anything is sent.
    rmSync(`${out}.apiwb-resume.json`);
    symlinkSync(victim, `${out}.apiwb-resume.json`);
    const sent = received.length;
    const again = await runInProcess([httpFile, '--env', 'local', '--env-file', envFile, '--name', 'walk', '--all-pages', '--out', out]);
    assert.equal(again.code, 2, again.stdout + again.stderr);
    assert.match(again.stderr, /--out's resume record .*planted\.ndjson\.apiwb-resume\.json is a symbolic link/);
    assert.equal(received.length, sent);
    assert.equal(readFileSync(victim, 'utf8'), 'precious\n');
  });

  void it("yesterday's export survives a run that fails at sign-in (exit 1, said on stderr)", async () => {
    const authed = join(dir, 'authed.http');
    writeFileSync(authed, ['# @name signed', 'GET {{base}}/items', 'Authorization: Bearer {{$auth.token("svc")}}', ''].join('\n'));
    const out = join(dir, 'yesterday.ndjson');
    writeFileSync(out, '{"id":"yesterday"}\n');
    const r = await runInProcess([authed, '--env', 'local', '--env-file', envFile, '--out', out], { APIWB_SECRET_SVC_PASSWORD: 'not-the-password' });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /invalid_grant|sign/i);
    assert.equal(readFileSync(out, 'utf8'), '{"id":"yesterday"}\n');
    assert.match(r.stderr, /no row was written; the file that was there is left as it was/);
  });

  void it('--out a folder: exit 2, said in words (no raw EISDIR)', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const r = await run(['--all-pages', '--out', folder]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--out .*a-folder is a folder; name a file in it/);
    assert.doesNotMatch(r.stderr, /EISDIR/);
  });

  void it('a full disk mid-walk: the reason in words, the exact resume command, which completes every row once', async () => {
    // A 48 KiB file system for the output: the walk's third page of ~12 KiB rows does not fit.
    const small = join(dir, 'small');
    mkdirSync(small);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48k', 'tmpfs', small]);
    try {
      pad = 4000;
      const out = join(small, 'rows.ndjson');
      const r = await runInProcess([httpFile, '--env', 'local', '--env-file', envFile, '--name', 'walk', '--all-pages', '--out', out]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /the disk holding .*rows\.ndjson is full/);
      assert.doesNotMatch(r.stdout + r.stderr, /ENOSPC|\{\{base\}\}/);
      const command = /: apiwb run (.*--resume)$/m.exec(r.stdout)?.[1];
      assert.ok(command, `a resume command is given: ${r.stdout}`);
      const kept = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
      assert.ok(kept > 0 && kept < 12 && kept % 3 === 0, `whole pages kept: ${kept}`);
      execFileSync('mount', ['-o', 'remount,size=1m', small]);
      const resumed = await runInProcess(command.split(' '));
      assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
      const ids = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: number }).id);
      assert.deepEqual(ids, Array.from({ length: 12 }, (_, i) => i + 1));
      assert.equal(existsSync(`${out}.apiwb-resume.json`), false);
    } finally {
      pad = 0;
      execFileSync('umount', [small]);
    }
  });
});
