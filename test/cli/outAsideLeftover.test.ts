// A run killed with SIGKILL while it writes --out over an old file leaves that old file aside under a
// hidden name (fileSink.ts), and no handler can say so. The next run that writes the same --out says where
// it is, in the product's words, and leaves it where it is: it may be the only copy of the user's data.
// The leftover is a real one: `apiwb run` as a child (src/cli/main.ts through tsx), killed mid-body.
// Hidden names that are not such a copy of this --out are not said. The test's own server, 127.0.0.1 port 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from './cliProcess';
import { asideAndRows, asidesOf } from './outAside';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import { commandInProcess, runInProcess } from './inProcess';
import { startLocalServer, type LocalServer } from './localServer';
import { padded } from './outFileRows';

const OLD = 'old rows: the only copy\n';

/** `apiwb run` writing `out` from a body that stalls, killed with SIGKILL once its first rows are in `out`. */
async function killedMidBody(server: LocalServer, out: string, stalled: Promise<void>): Promise<void> {
  const file = join(server.dir, 'stall.http');
  writeFileSync(file, 'GET {{base}}/stall\n');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', file, '--env', 'local', '--env-file', server.envFile, '--out', out], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await stalled;
  await asideAndRows(out);
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
}

void describe('--out: an old file left aside by a killed run', () => {
  let server: LocalServer;
  let stalled: () => void = () => undefined;
  before(async () => {
    server = await startLocalServer('apiwb-out-aside-leftover-', (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.startsWith('/stall')) {
        res.write(`[${padded(0, 40_000)},`);
        stalled();
        return;
      }
      res.end(JSON.stringify([{ id: 1 }, { id: 2 }]));
    });
    writeFileSync(join(server.dir, 'rows.http'), 'GET {{base}}/rows\n');
  });
  after(() => server.close());

  void it('the next run writing the same --out says where it is, and leaves it there', async () => {
    const out = join(server.dir, 'rows.ndjson');
    writeFileSync(out, OLD);
    await killedMidBody(server, out, new Promise<void>((resolve) => { stalled = resolve; }));
    const left = asidesOf(out);
    assert.equal(left.length, 1, JSON.stringify(left));
    assert.equal(readFileSync(join(server.dir, left[0]!), 'utf8'), OLD, 'the killed run left the old file aside');
    // Hidden names that are no copy of this --out: another file's, and not of the run's form.
    writeFileSync(join(server.dir, '.other.ndjson.apiwb-before-0123abcd'), 'another file\n');
    writeFileSync(join(server.dir, `.${basename(out)}.apiwb-before-notmine`), 'not a copy\n');

    const again = await runInProcess([join(server.dir, 'rows.http'), '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const said = again.stderr.split('\n').filter((line) => line.includes('apiwb-before-'));
    assert.deepEqual(said, [
      `apiwb run: an earlier run writing ${out} was stopped before it ended: the file that was there before it is kept at ${join(server.dir, left[0]!)}, and is left there (move it back, or delete it once it is not needed)`,
    ], again.stderr);
    assert.equal(readFileSync(join(server.dir, left[0]!), 'utf8'), OLD, 'never removed: it may be the only copy');
    assert.deepEqual(readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown), [{ id: 1 }, { id: 2 }]);
    // Said again by every run writing there, until the user moves it.
    const third = await runInProcess([join(server.dir, 'rows.http'), '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(third.stderr.split('\n').filter((line) => line.includes(left[0]!)).length, 1, third.stderr);
  });

  void it('a run writing an --out with no old file aside says nothing of it', async () => {
    const out = join(server.dir, 'fresh.ndjson');
    writeFileSync(out, OLD);
    const run = await runInProcess([join(server.dir, 'rows.http'), '--env', 'local', '--env-file', server.envFile, '--out', out]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(!run.stderr.includes('kept at'), run.stderr);
    assert.deepEqual(asidesOf(out), [], 'a run that ends lets its own old file go');
  });

  void it('apiwb compare --out says the same of an old file left beside its --out, and leaves it', async () => {
    const left = join(server.dir, 'left.ndjson');
    const right = join(server.dir, 'right.ndjson');
    writeFileSync(left, '{"id":1}\n');
    writeFileSync(right, '{"id":2}\n');
    const out = join(server.dir, 'diffs.ndjson');
    writeFileSync(out, 'yesterday\n');
    // As a killed compare leaves it (the form fileSink.ts writes).
    const aside = join(server.dir, `.${basename(out)}.apiwb-before-89abcdef`);
    writeFileSync(aside, OLD);
    const r = await commandInProcess(compareCommand, [left, right, '--key', 'id', '--out', out]);
    assert.equal(r.stderr.split('\n').filter((line) => line.includes(`kept at ${aside}, and is left there`) && line.startsWith('apiwb compare: an earlier run writing')).length, 1, r.stderr);
    assert.equal(readFileSync(aside, 'utf8'), OLD);
    assert.ok(readFileSync(out, 'utf8').includes('"kind":"added"'), 'the differences are written all the same');
  });
});
