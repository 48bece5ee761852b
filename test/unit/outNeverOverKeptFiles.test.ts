// Invariant (d): `apiwb run --out FILE` never overwrites an input it reads. The user's signing key
// (src/core/files/userKey.ts: the code cache's and the resume records' key, in the per-user config folder)
// is read by every run that writes a resume record, yet `--out` naming it is taken: the rows are written
// over it. Every record signed before is refused from then on, and the key becomes what the server sent:
// a body `[1234567890123456789012345678901]` leaves exactly 32 bytes the server chose, which apiwb then
// takes as this user's key (records and code-cache entries forged with it pass).
// The rule now: the places apiwb keeps for itself (src/cli/keptPlaces.ts: the key file, the code cache's
// folder, resume records) are given to every command's RunFiles, and no output may be one of them
// (src/core/files/outputs.ts); and a key file not in the one form apiwb writes is refused, never used
// (src/core/files/userKey.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { codeCacheDir } from '../../src/cli/codeCache';
import { userKeyFile } from '../../src/cli/userKeyFile';
import { resumeKey } from '../../src/cli/resumeFile';
import { runInProcess } from '../cli/inProcess';
import { startLocalServer, type LocalServer } from '../cli/localServer';

void describe('--out naming the signing key file', () => {
  let server: LocalServer;
  before(async () => {
    server = await startLocalServer('apiwb-keyout-', (req, res) => {
      if (req.url === '/p2') res.writeHead(500).end('down');
      else if (req.url === '/p1') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value: [{ a: 1 }], nextLink: '/p2' }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[1234567890123456789012345678901]');
    });
  });
  after(() => server.close());

  void it('a walk writing its record: refused (exit 2), the key left as it was', async () => {
    const made = resumeKey();
    assert.ok(made.ok, 'no test key');
    const keyFile = userKeyFile()!;
    const key = readFileSync(keyFile);
    const file = join(server.dir, 'walk.http');
    writeFileSync(file, '# @paging generic\nGET {{base}}/p1\n');
    const r = await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--all-pages', '--out', keyFile]);
    const now = readFileSync(keyFile);
    writeFileSync(keyFile, key, { mode: 0o600 });
    assert.ok(now.equals(key), `the signing key was overwritten with the rows (exit ${r.code}): ${JSON.stringify(now.toString('latin1'))}`);
    assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
  });

  void it('a single response: the server never chooses the key', async () => {
    assert.ok(resumeKey().ok, 'no test key');
    const keyFile = userKeyFile()!;
    const key = readFileSync(keyFile);
    const file = join(server.dir, 'one.http');
    writeFileSync(file, 'GET {{base}}/one\n');
    await runInProcess([file, '--env', 'local', '--env-file', server.envFile, '--out', keyFile]);
    const taken = resumeKey();
    writeFileSync(keyFile, key, { mode: 0o600 });
    assert.ok(!(taken.ok && taken.key.toString('latin1') === '1234567890123456789012345678901\n'), 'the key apiwb signs with is now the one the server sent');
  });

  void it('--report naming the key file, or --out a file of the code cache or another resume record: refused, nothing written', async () => {
    assert.ok(resumeKey().ok, 'no test key');
    const keyFile = userKeyFile()!;
    const key = readFileSync(keyFile);
    const own = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'apiwb-keyout-cache-'));
    try {
      const cache = codeCacheDir()!;
      mkdirSync(cache, { recursive: true });
      const file = join(server.dir, 'one.http');
      writeFileSync(file, 'GET {{base}}/one\n');
      const args = [file, '--env', 'local', '--env-file', server.envFile];
      const report = await runInProcess([...args, '--report', keyFile]);
      assert.equal(report.code, 2, `${report.stdout}${report.stderr}`);
      assert.ok(readFileSync(keyFile).equals(key), 'the key was written over by --report');
      const entry = join(cache, 'run.js.cache');
      const inCache = await runInProcess([...args, '--out', entry]);
      assert.equal(inCache.code, 2, `${inCache.stdout}${inCache.stderr}`);
      assert.ok(!existsSync(entry), 'rows were written into the code cache');
      const record = join(server.dir, 'earlier.ndjson.apiwb-resume.json');
      const overRecord = await runInProcess([...args, '--out', record]);
      assert.equal(overRecord.code, 2, `${overRecord.stdout}${overRecord.stderr}`);
      assert.ok(!existsSync(record), 'rows were written over a resume record');
    } finally {
      process.env.XDG_CACHE_HOME = own;
      if (own === undefined) delete process.env.XDG_CACHE_HOME;
    }
  });

  void it('a key file not in the one form apiwb writes is never used as the key: refused, or (32 bytes, an earlier release\'s form) replaced', () => {
    assert.ok(resumeKey().ok, 'no test key');
    const keyFile = userKeyFile()!;
    const key = readFileSync(keyFile);
    const current = /^apiwb signing key v1\n([0-9a-f]{64})\n$/.exec(key.toString('latin1'))![1]!;
    for (const planted of ['1234567890123456789012345678901\n', key.toString('latin1').toUpperCase(), `${key.toString('latin1')}\n`]) {
      writeFileSync(keyFile, planted, { mode: 0o600 });
      const taken = resumeKey();
      const left = readFileSync(keyFile, 'latin1');
      writeFileSync(keyFile, key, { mode: 0o600 });
      if (planted.length === 32) {
        assert.ok(taken.ok && !taken.key.equals(Buffer.from(planted, 'latin1')) && taken.key.toString('hex') !== current, `an earlier release's form is replaced by a new key: ${JSON.stringify(planted)}`);
        assert.match(left, /^apiwb signing key v1\n[0-9a-f]{64}\n$/);
      } else assert.ok(!taken.ok, `taken as the key: ${JSON.stringify(planted)}`);
    }
  });
});
