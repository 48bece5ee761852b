// Issue 30, environments from the other tools: `apiwb run` reads JetBrains' http-client.private.env.json
// beside http-client.env.json, over real HTTP on loopback. Its values override the shared file's (shared
// $shared < shared environment < private $shared < private environment); every one is a secret: never
// printed, never in --out or a report, and refused on its way to an origin the environment does not name;
// an auth entry's password written there signs in, and goes nowhere but its Token URL. Once per run stderr
// says when git would commit the file (a real git repository). A malformed private file stops the run with
// its file, line and column, sends nothing, and is left as it was.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './inProcess';
import { json, listenBase, recorder, type Seen } from './localServer';

const PASSWORD = 'private-pw-7f3a91c2';
const ENG_PASSWORD = 'eng-signin-pw-55d0e1';
const TOKEN = 'at-from-private-signin-4b8c';


void describe('apiwb run reads http-client.private.env.json', () => {
  const dirs: string[] = [];
  const servers: Server[] = [];
  const homeSeen: Seen[] = [];
  const otherSeen: Seen[] = [];
  const authSeen: Seen[] = [];
  let home = '';
  let other = '';
  let auth = '';

  before(async () => {
    // The API echoes what it was sent (so a leak into rows would show); sign-in is another origin's.
    const api = recorder(homeSeen, (req, res) => json(res, { items: [{ id: 1, echo: req.headers['x-pass'] ?? '', url: req.url }] }));
    const signIn = recorder(authSeen, (_req, res, body) => {
      const form = new URLSearchParams(body);
      return form.get('password') === ENG_PASSWORD ? json(res, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }) : json(res, { error: 'invalid_grant' }, 400);
    });
    const elsewhere = recorder(otherSeen, (_req, res) => json(res, { items: [] }));
    servers.push(api, signIn, elsewhere);
    home = await listenBase(api);
    auth = await listenBase(signIn);
    other = await listenBase(elsewhere);
  });
  after(async () => {
    for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A folder with the shared env file, the private one (text as given) and one .http file. */
  function workspace(privateText: string | undefined, http: string): { dir: string; file: string; envFile: string; privateFile: string } {
    const dir = mkdtempSync(join(tmpdir(), 'apiwb-private-run-'));
    dirs.push(dir);
    const envFile = join(dir, 'http-client.env.json');
    writeFileSync(envFile, JSON.stringify({
      $shared: { v1: 'pub-shared-1', v2: 'pub-shared-2', v3: 'pub-shared-3', v4: 'pub-shared-4' },
      local: {
        base: home, auth, v2: 'pub-env-2', v3: 'pub-env-3', v4: 'pub-env-4',
        Security: { Auth: { eng: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{auth}}/token', Username: 'ann', Password: '{{eng_password}}' } } },
      },
    }, null, 2));
    const privateFile = join(dir, 'http-client.private.env.json');
    if (privateText !== undefined) writeFileSync(privateFile, privateText);
    const file = join(dir, 'req.http');
    writeFileSync(file, http);
    return { dir, file, envFile, privateFile };
  }

  const privateText = JSON.stringify({
    $shared: { v3: 'priv-shared-3', v4: 'priv-shared-4' },
    local: { v4: 'priv-env-4', password: PASSWORD, eng_password: ENG_PASSWORD },
  }, null, 2);

  function everythingWritten(r: { stdout: string; stderr: string }, files: readonly string[]): string {
    return [r.stdout, r.stderr, ...files.map((f) => readFileSync(f, 'utf8'))].join('\n');
  }

  void it('{{password}} from the private file is sent to the environment\'s origin and never printed, in --out or in the report', async () => {
    homeSeen.length = 0;
    const w = workspace(privateText, `# @name withPassword\nGET {{base}}/things\nX-Pass: {{password}}\n`);
    const out = join(w.dir, 'rows.ndjson');
    const report = join(w.dir, 'report.json');
    const r = await runInProcess([w.file, '--env', 'local', '--out', out, '--reporter', 'json', '--report', report]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(homeSeen.length, 1);
    assert.equal(homeSeen[0]?.headers['x-pass'], PASSWORD, 'the private value reached its own origin');
    const written = everythingWritten(r, [out, report]);
    assert.ok(!written.includes(PASSWORD), `the private value was written: ${written}`);
    assert.match(readFileSync(out, 'utf8'), /"echo"/, 'the row the server echoed is in --out (with the value hidden)');
  });

  void it('{{password}} on its way to an origin the environment does not name is refused: the other server receives nothing', async () => {
    otherSeen.length = 0;
    const w = workspace(privateText, `# @name leak\nPOST ${other}/collect\nContent-Type: text/plain\n\nthe password is {{password}}\n`);
    const r = await runInProcess([w.file, '--env', 'local']);
    assert.notEqual(r.code, 0);
    assert.equal(otherSeen.length, 0, 'the other origin received nothing');
    assert.match(r.stdout, new RegExp(`not sent to ${other.replace(/[.]/g, '\\.')}: the body carries the variable 'password' of .*http-client\\.private\\.env\\.json, which belongs to ${[home, auth].sort().join(' and ').replace(/[.]/g, '\\.')} only`), r.stdout);
    assert.ok(!(r.stdout + r.stderr).includes(PASSWORD));
  });

  void it('the order: shared $shared < shared environment < private $shared < private environment', async () => {
    homeSeen.length = 0;
    const w = workspace(privateText, `GET {{base}}/vars?v1={{v1}}&v2={{v2}}&v3={{v3}}&v4={{v4}}\n`);
    const r = await runInProcess([w.file, '--env', 'local']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(homeSeen[0]?.url, '/vars?v1=pub-shared-1&v2=pub-env-2&v3=priv-shared-3&v4=priv-env-4');
    // The private values are secrets: the URL printed hides them, the shared file's values show.
    assert.match(r.stdout, /v1=pub-shared-1&v2=pub-env-2/);
    assert.ok(!r.stdout.includes('priv-shared-3') && !r.stdout.includes('priv-env-4'), r.stdout);
  });

  void it('an auth entry\'s "{{eng_password}}" from the private file signs in; sent to the API itself it is refused (a password goes to its Token URL only)', async () => {
    homeSeen.length = 0;
    authSeen.length = 0;
    const signIn = workspace(privateText, `GET {{base}}/me\nAuthorization: Bearer {{$auth.token("eng")}}\n`);
    const ok = await runInProcess([signIn.file, '--env', 'local']);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.deepEqual(authSeen.map((s) => s.url), ['/token']);
    assert.equal(new URLSearchParams(authSeen[0]?.body).get('password'), ENG_PASSWORD);
    assert.deepEqual(homeSeen.map((s) => s.url), ['/me']);
    assert.equal(homeSeen[0]?.headers.authorization, `Bearer ${TOKEN}`);
    assert.ok(!(ok.stdout + ok.stderr).includes(ENG_PASSWORD) && !(ok.stdout + ok.stderr).includes(TOKEN));

    homeSeen.length = 0;
    const misuse = workspace(privateText, `GET {{base}}/me\nX-Pass: {{eng_password}}\n`);
    const refused = await runInProcess([misuse.file, '--env', 'local']);
    assert.notEqual(refused.code, 0);
    assert.equal(homeSeen.length, 0, 'the API never saw the sign-in password');
    assert.match(refused.stdout, new RegExp(`carries the password of auth 'eng' .*which belongs to ${auth.replace(/[.]/g, '\\.')} only`), refused.stdout);
  });

  void it('an APIWB_SECRET_* variable wins over the private file for the same auth field', async () => {
    authSeen.length = 0;
    const w = workspace(privateText, `GET {{base}}/me\nAuthorization: Bearer {{$auth.token("eng")}}\n`);
    const r = await runInProcess([w.file, '--env', 'local'], { APIWB_SECRET_ENG_PASSWORD: 'a-wrong-one-from-env' });
    assert.notEqual(r.code, 0, 'the variable was used (and refused by the server)');
    assert.equal(new URLSearchParams(authSeen[0]?.body).get('password'), 'a-wrong-one-from-env');
  });

  void it('a malformed private file: exit 2, its name, line and column; nothing sent; the file left as it was', async () => {
    homeSeen.length = 0;
    const broken = '{\n  "local": {\n    "password": "abc",\n  }\n}\n';
    const w = workspace(broken, `GET {{base}}/things\n`);
    const r = await runInProcess([w.file, '--env', 'local']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /http-client\.private\.env\.json:4:3: not valid JSON/, r.stderr);
    assert.equal(homeSeen.length, 0);
    assert.equal(readFileSync(w.privateFile, 'utf8'), broken);

    const notAnObject = workspace('{\n  "local": "oops"\n}\n', `GET {{base}}/things\n`);
    const r2 = await runInProcess([notAnObject.file, '--env', 'local']);
    assert.equal(r2.code, 2);
    assert.match(r2.stderr, /http-client\.private\.env\.json:2:3: .*each environment must be an object of variables/, r2.stderr);
  });

  void describe('the git warning', () => {
    const git = (dir: string, ...args: string[]): void => { execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' }); };
    const warnings = (stderr: string): string[] => stderr.split('\n').filter((line) => line.includes('warning:') && line.includes('http-client.private.env.json'));

    void it('in a git work tree, not ignored: one warning on stderr, in the product\'s words', async () => {
      const w = workspace(privateText, `GET {{base}}/a\n\n###\nGET {{base}}/b\n`);
      git(w.dir, 'init', '--quiet');
      const r = await runInProcess([w.file, '--env', 'local']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(warnings(r.stderr).length, 1, r.stderr);
      assert.match(r.stderr, /warning: .*http-client\.private\.env\.json holds secrets and git would commit it: add it to \.gitignore\./);
    });

    void it('tracked by git: the warning says so', async () => {
      const w = workspace(privateText, `GET {{base}}/a\n`);
      git(w.dir, 'init', '--quiet');
      git(w.dir, 'add', 'http-client.private.env.json');
      const r = await runInProcess([w.file, '--env', 'local']);
      assert.equal(warnings(r.stderr).length, 1, r.stderr);
      assert.match(r.stderr, /holds secrets and git tracks it: .*untrack it \(git rm --cached\) and add it to \.gitignore/);
    });

    void it('ignored, or no git work tree: no warning', async () => {
      const ignored = workspace(privateText, `GET {{base}}/a\n`);
      git(ignored.dir, 'init', '--quiet');
      writeFileSync(join(ignored.dir, '.gitignore'), 'http-client.private.env.json\n');
      const r = await runInProcess([ignored.file, '--env', 'local']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(warnings(r.stderr), []);
      const plain = workspace(privateText, `GET {{base}}/a\n`);
      const r2 = await runInProcess([plain.file, '--env', 'local']);
      assert.deepEqual(warnings(r2.stderr), []);
    });
  });
});
