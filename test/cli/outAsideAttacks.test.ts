// Attack (review of the --out aside): an existing --out file is moved aside at the first write and put
// back or deleted at close. Each case runs `apiwb run` as a child (src/cli/main.ts through tsx) against
// the test's own server on 127.0.0.1 port 0, and looks at what the --out path and its folder hold after.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, existsSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { padded } from './outFileRows';

interface Run { code: number; stdout: string; stderr: string }

/** `apiwb run ARGS` with the process's file size limit at `kb` KiB (a write past it fails: EFBIG). */
function runLimited(kb: number, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', `ulimit -f ${kb}; exec "$0" --import tsx src/cli/main.ts run "$@"`, process.execPath, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

function run(args: readonly string[], preload: readonly string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...preload, '--import', 'tsx', 'src/cli/main.ts', 'run', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

const OLD = 'yesterday\'s rows: keep me\n';
/** The hidden files beside `out` named as its aside. */
const asidesOf = (out: string): string[] => readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.apiwb-before-`));

void describe('--out moved aside, then kept or put back (attacks)', () => {
  let server: LocalServer;
  let stalled: (() => void) | undefined;
  before(async () => {
    server = await startLocalServer('apiwb-out-aside-', (req, res) => {
      const url = req.url ?? '';
      if (url === '/good') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`[${padded(0, 3)}]`);
      } else if (url === '/empty') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[]');
      } else if (url === '/bad') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(`[${padded(100, 2)}]`);
      } else if (url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`[${padded(300, 20_000)}]`);
      } else if (url === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`[${padded(200, 40_000)},`);
        stalled?.();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(() => server.close());

  const httpFile = (name: string, paths: readonly string[]): string => {
    const file = join(server.dir, `${name}.http`);
    writeFileSync(file, paths.map((p) => `GET {{base}}/${p}\n`).join('###\n'));
    return file;
  };
  const env = () => ['--env', 'local', '--env-file', server.envFile];

  for (const format of ['ndjson', 'csv', 'json'] as const) {
    void it(`${format}: the first request's rows are kept when the second fails; no aside is left`, async () => {
      const out = join(server.dir, `two-${format}.out`);
      writeFileSync(out, OLD);
      const r = await run([httpFile(`two-${format}`, ['good', 'bad']), ...env(), '--out', out, '--format', format]);
      const text = readFileSync(out, 'utf8');
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(text, /"id":2|^2,/m, `the first request's rows are in the file: ${JSON.stringify(text)}\n${r.stdout}${r.stderr}`);
      assert.doesNotMatch(text, /"id":100|,100,|keep me/, text);
      assert.deepEqual(asidesOf(out), []);
    });
  }

  void it('no row kept (0 rows, then a failure): the old file is back, its content and inode-free mode as before', async () => {
    const out = join(server.dir, 'zero-fail.out');
    writeFileSync(out, OLD);
    chmodSync(out, 0o640);
    const r = await run([httpFile('zero-fail', ['empty', 'bad']), ...env(), '--out', out]);
    assert.equal(r.code, 1);
    assert.equal(readFileSync(out, 'utf8'), OLD, r.stdout + r.stderr);
    assert.equal(statSync(out).mode & 0o777, 0o640);
    assert.deepEqual(asidesOf(out), []);
  });

  void it('a run that fails with no old file leaves none', async () => {
    const out = join(server.dir, 'none-fail.out');
    const r = await run([httpFile('none-fail', ['bad']), ...env(), '--out', out]);
    assert.equal(r.code, 1);
    assert.equal(existsSync(out), false, r.stdout + r.stderr);
    assert.deepEqual(asidesOf(out), []);
  });

  void it('a run that succeeds with 0 rows replaces the old file by an empty one (what it says)', async () => {
    const out = join(server.dir, 'zero-ok.out');
    writeFileSync(out, OLD);
    const r = await run([httpFile('zero-ok', ['empty']), ...env(), '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(readFileSync(out, 'utf8'), '', r.stdout + r.stderr);
    assert.deepEqual(asidesOf(out), []);
  });

  void it('a private old file: the new one is private too', async () => {
    const out = join(server.dir, 'private.out');
    writeFileSync(out, OLD);
    chmodSync(out, 0o600);
    const r = await run([httpFile('private', ['good']), ...env(), '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(statSync(out).mode & 0o777, 0o600);
  });

  void it('an old file of another owner (a run as root): the new one keeps its owner and group', async () => {
    const out = join(server.dir, 'owned.out');
    writeFileSync(out, OLD);
    chownSync(out, 12345, 23456);
    const r = await run([httpFile('owned', ['good']), ...env(), '--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const { uid, gid } = statSync(out);
    assert.deepEqual({ uid, gid }, { uid: 12345, gid: 23456 }, `the file's owner changed: the user it belonged to may no longer write it\n${r.stdout}`);
  });

  void it('a folder the user may not write, its file the user may: the old file is never lost', async () => {
    chmodSync(server.dir, 0o755);
    const folder = join(server.dir, 'locked');
    mkdirSync(folder, { mode: 0o755 });
    const out = join(folder, 'theirs.out');
    writeFileSync(out, OLD);
    chownSync(out, 65534, 65534);
    const file = httpFile('locked', ['good']);
    const r = await new Promise<Run>((resolve) => {
      execFile('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', 'src/cli/main.ts', 'run', file, ...env(), '--out', out], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', HOME: '/tmp' }, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      });
    });
    const now = existsSync(out) ? readFileSync(out, 'utf8') : '(none)';
    if (r.code === 0) assert.match(now, /"id":2/, r.stdout + r.stderr);
    else assert.equal(now, OLD, `exit ${r.code}: --out now ${JSON.stringify(now.slice(0, 80))}\n${r.stdout}${r.stderr}`);
    assert.deepEqual(asidesOf(out), []);
  });

  void it('--out naming the .http file or the env file is refused, both files as they were', async () => {
    const file = httpFile('self', ['good']);
    const before = readFileSync(file, 'utf8');
    const envBefore = readFileSync(server.envFile, 'utf8');
    const r1 = await run([file, ...env(), '--out', file]);
    const r2 = await run([file, ...env(), '--out', server.envFile]);
    assert.notEqual(r1.code, 0);
    assert.notEqual(r2.code, 0);
    assert.equal(readFileSync(file, 'utf8'), before, r1.stdout + r1.stderr);
    assert.equal(readFileSync(server.envFile, 'utf8'), envBefore, r2.stdout + r2.stderr);
    assert.deepEqual([...asidesOf(file), ...asidesOf(server.envFile)], []);
  });

  void it('--out a symbolic link: refused, the link and its target as they were', async () => {
    const target = join(server.dir, 'target.out');
    const link = join(server.dir, 'link.out');
    writeFileSync(target, OLD);
    symlinkSync(target, link);
    const r = await run([httpFile('link', ['good']), ...env(), '--out', link]);
    assert.notEqual(r.code, 0);
    assert.ok(lstatSync(link).isSymbolicLink(), r.stdout + r.stderr);
    assert.equal(readFileSync(target, 'utf8'), OLD);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    void it(`${signal} mid-body (Ctrl-C or a kill): the old file is kept whole beside --out, and where is said`, async () => {
      const out = join(server.dir, `${signal}.out`);
      writeFileSync(out, OLD);
      const file = httpFile(signal, ['stall']);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, ...env(), '--out', out], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
      await new Promise<void>((resolve) => { stalled = resolve; });
      // Readiness: the first rows reached the new file (the old one moved aside), watched, at most 30 s.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => { w.close(); reject(new Error(`no row reached ${out}`)); }, 30_000);
        const check = () => {
          if (asidesOf(out).length > 0 && existsSync(out) && statSync(out).size > 0) { clearTimeout(timer); w.close(); resolve(); }
        };
        const w = watch(server.dir, check);
        check();
      });
      child.kill(signal);
      await exited;
      const now = existsSync(out) ? readFileSync(out, 'utf8') : '(none)';
      const mine = asidesOf(out);
      const holdsOld = mine.map((n) => readFileSync(join(server.dir, n), 'utf8') === OLD);
      // The rows written so far stay at --out (a walk resumes from them); the old file is never lost unseen.
      assert.equal(mine.length, 1, `one hidden file holds the old one: ${JSON.stringify(mine)}; --out holds ${now.length} bytes; printed: ${JSON.stringify(output)}`);
      assert.deepEqual(holdsOld, [true], 'the hidden file holds the old content whole');
      assert.ok(output.includes(join(server.dir, mine[0]!)), `the hidden file is named on stderr: ${JSON.stringify(output)}`);
      assert.ok(now.startsWith('{"id":'), `--out holds the rows written so far: ${JSON.stringify(now.slice(0, 60))}`);
    });
  }

  void it('a file already named as the aside is not overwritten (the aside name collides)', async () => {
    // The child's randomUUID made predictable by a preload, so the aside name is known beforehand.
    const preload = join(server.dir, 'fixed-uuid.cjs');
    writeFileSync(preload, "require('node:crypto').randomUUID = () => '00000000-0000-4000-8000-000000000000'; require('node:module').syncBuiltinESMExports();\n");
    const out = join(server.dir, 'collide.out');
    const other = join(server.dir, '.collide.out.apiwb-before-00000000');
    writeFileSync(out, OLD);
    writeFileSync(other, 'another file the user keeps\n');
    const r = await run([httpFile('collide', ['good']), ...env(), '--out', out], ['--require', preload]);
    const otherNow = existsSync(other) ? readFileSync(other, 'utf8') : '(gone)';
    assert.equal(otherNow, 'another file the user keeps\n', `exit ${r.code}; the file ${other} now: ${JSON.stringify(otherNow)}\n${r.stdout}${r.stderr}`);
  });

  for (const format of ['ndjson', 'csv', 'json'] as const) {
    void it(`${format}: the file fails mid-write (EFBIG), nothing kept: the old file is back`, async () => {
      const out = join(server.dir, `efbig-${format}.out`);
      writeFileSync(out, OLD);
      const r = await runLimited(500, [httpFile(`efbig-${format}`, ['big']), ...env(), '--out', out, '--format', format]);
      const now = existsSync(out) ? readFileSync(out, 'utf8') : '(none)';
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(now, OLD, `--out holds ${now.length} bytes; hidden: ${JSON.stringify(asidesOf(out))}\n${r.stdout}${r.stderr}`);
      assert.deepEqual(asidesOf(out), []);
    });

    void it(`${format}: the first request's rows kept, the second fails mid-write (EFBIG): the first's rows stay`, async () => {
      const out = join(server.dir, `efbig2-${format}.out`);
      writeFileSync(out, OLD);
      const r = await runLimited(500, [httpFile(`efbig2-${format}`, ['good', 'big']), ...env(), '--out', out, '--format', format]);
      const now = existsSync(out) ? readFileSync(out, 'utf8') : '(none)';
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(now, /"id":2|^2,/m, `--out: ${JSON.stringify(now.slice(0, 200))}\n${r.stdout}${r.stderr}`);
      assert.doesNotMatch(now, /"id":300|^300,|keep me/m, now.slice(0, 200));
      if (format === 'json') assert.doesNotThrow(() => JSON.parse(now), `a JSON file that parses: ...${JSON.stringify(now.slice(-60))}`);
      assert.deepEqual(asidesOf(out), []);
    });
  }
});
