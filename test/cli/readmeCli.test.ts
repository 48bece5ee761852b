// README's CLI section, run as written, in a copy of the clone's tracked files (no env file left behind by
// an earlier `npm start`, no placeholder to trip on): its first sh block (the sandbox, left running) in one
// shell until the sandbox says it wrote the env file, its second block in another shell, which must exit 0
// and print README's documented lines, ports and times aside. `npx apiwb` finds this clone's CLI as a
// fresh clone's would after `npm run build`: dist/cli.js, built here with the build's own CLI bundler.
// A placeholder left in an env file is an input error naming the variable (exit 2).
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildCliBundles } from '../../scripts/cliBundles.mjs';
import { runCli } from './cliProcess';

const ROOT = join(import.meta.dirname, '..', '..');

/** The blocks of README's "## The CLI" section: the sh blocks in order, and the text block of output. */
function readmeCliSection(): { sh: string[]; output: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## The CLI\n');
  assert.ok(start >= 0, 'README has a "## The CLI" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] ?? '' }));
  const sh = blocks.filter((b) => b.lang === 'sh').map((b) => b.text);
  const output = blocks.find((b) => b.lang === 'text')?.text ?? '';
  return { sh, output };
}

/** Ports, times and rates differ from run to run; everything else of a line is as documented. */
function comparable(lines: string): string[] {
  return lines.trim().split('\n').map((line) => line
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/ in \d[\d.]* m?s\b/g, ' in T')
    .replace(/\b\d+ ms\b/g, 'N ms')
    .replace(/\d[\d\u202f ,.]*(?= (pages|rows)\/s)/g, 'N'));
}

/** A copy of the clone's tracked files that README's commands touch, with dist/cli.js built as `npm run build` builds it. */
async function cleanCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-readme-'));
  const tracked = execFileSync('git', ['ls-files', '-z', 'package.json', 'samples'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  await buildCliBundles({ outfile: join(dir, 'dist', 'cli.js'), logLevel: 'silent' });
  return dir;
}

/** `sh -c text` in `cwd`, in its own process group (so the whole group stops with it). */
function shell(text: string, cwd: string): ChildProcess & { out: () => string; exited: Promise<number | null> } {
  const child = spawn('sh', ['-c', text], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { out += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return Object.assign(child, { out: () => out, exited });
}

void describe("README's CLI section on a clean copy of the clone", () => {
  let dir = '';
  let sandbox: ReturnType<typeof shell> | undefined;
  before(async () => { dir = await cleanCopy(); });
  after(async () => {
    if (sandbox && sandbox.exitCode === null && sandbox.pid !== undefined) {
      process.kill(-sandbox.pid, 'SIGTERM');
      await sandbox.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  void it('the sandbox writes the env file, the run exits 0 with the documented lines', { timeout: 180_000 }, async () => {
    const { sh, output } = readmeCliSection();
    assert.equal(sh.length, 2, 'two sh blocks: the sandbox, then the run');
    assert.doesNotThrow(() => readFileSync(join(dir, 'samples/collections/booking.http')), 'the copy holds the sample collection');
    sandbox = shell(sh[0]!, dir);
    // Ready when it says so (the env file is written before that line); a sandbox that ends first fails here.
    const ready = new Promise<void>((resolve, reject) => {
      const check = (): void => { if (/wrote the "sandbox" environment/.test(sandbox!.out())) resolve(); };
      sandbox!.stdout!.on('data', check);
      void sandbox!.exited.then((code) => reject(new Error(`the sandbox ended (${code}) before it was ready:\n${sandbox!.out()}`)));
    });
    await ready;
    const run = shell(sh[1]!, dir);
    const code = await run.exited;
    assert.equal(code, 0, `README's run exited ${code}:\n${run.out()}`);
    assert.deepEqual(comparable(run.out()), comparable(output), "the run prints README's documented lines");
    const rows = readFileSync(join(dir, 'rows.ndjson'), 'utf8').split('\n').filter(Boolean).length;
    assert.equal(rows, Number(/, (\d+) rows,/.exec(output)?.[1]), 'rows.ndjson holds every row the summary counts');
  });
});

void describe('an env file with a placeholder', () => {
  let dir = '';
  let cli = '';
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-placeholder-'));
    [cli = ''] = await buildCliBundles({ outfile: join(dir, 'apiwb.cjs'), logLevel: 'silent' });
    writeFileSync(join(dir, 'req.http'), 'GET {{booking_base_url}}/bookings\n');
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  void it('is an input error (exit 2) naming the file, environment and variable, before any request', async () => {
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ sandbox: { booking_base_url: '<filled by npm start>' } }));
    const result = await runCli(cli, ['run', join(dir, 'req.http'), '--env', 'sandbox']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /http-client\.env\.json: environment 'sandbox', key 'booking_base_url': booking_base_url is a placeholder \("<filled by npm start>"\)/);
    assert.match(result.stderr, /apiwb sandbox --write-env-file /, 'says how the sandbox environment gets written');
    assert.equal(result.stdout, '', 'nothing was sent');
  });

  void it('a value with angle brackets inside other text is a value, not a placeholder', async () => {
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ other: { booking_base_url: 'http://127.0.0.1:1', note: 'a <b> c' } }));
    const result = await runCli(cli, ['run', join(dir, 'req.http'), '--env', 'other', '--timeout', '2000']);
    assert.doesNotMatch(result.stderr, /placeholder/);
    assert.equal(result.code, 1, 'sent, and refused by the closed port');
  });
});
