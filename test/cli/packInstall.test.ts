// The installable CLI: scripts/pack-cli.mjs packs cli/ (the bundle, its README and licence, nothing else),
// `npm install -g --prefix <tmp>` installs the tarball offline, and the installed `apiwb` prints its
// version and runs the sample collection against the sandbox.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';
import { assertNoSecret, ROOT, summaryLines } from './cliProcess';
import { subcommandModules } from '../../scripts/cliBundles.mjs';

const exec = promisify(execFile);
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

void describe('pack, install and run the CLI', () => {
  let dir: string;
  let tarball: string;
  let apiwb: string;
  let ws: SandboxWorkspace;
  // Only Node on the PATH (the directory of this node), no APIWB_SECRET_* but what a test passes.
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir, NO_COLOR: '1', ...extra,
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-pack-'));
    const packed = await exec(process.execPath, [join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', join(dir, 'packed')], { cwd: ROOT });
    tarball = packed.stdout.trim().split('\n').at(-1) ?? '';
    ws = await openSandboxWorkspace();
  });
  after(async () => {
    await ws.close();
    rmSync(dir, { recursive: true, force: true });
  });

  void it('the tarball holds only the bundled CLI (the dispatcher and one bundle per subcommand), package.json, README and LICENSE', async () => {
    assert.match(tarball, /apiwb-\d+\.\d+\.\d+\.tgz$/);
    const { stdout } = await exec('tar', ['-tzf', tarball]);
    const bundles = ['dist/apiwb.cjs', ...subcommandModules().map((module) => `dist/apiwb.${module}.cjs`)];
    assert.ok(bundles.length >= 5, `the dispatcher and its subcommands: ${bundles.join(', ')}`);
    assert.deepEqual(stdout.trim().split('\n').sort(), ['package/LICENSE', 'package/README.md', ...bundles.map((b) => `package/${b}`), 'package/package.json'].sort());
  });

  void it('installs offline into a temporary prefix; apiwb --version prints the product version', async () => {
    const prefix = join(dir, 'prefix');
    await exec('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], { env: { ...env(), npm_config_cache: join(dir, 'npm-cache') } });
    apiwb = join(prefix, 'bin', 'apiwb');
    const { stdout } = await exec(apiwb, ['--version'], { env: env() });
    assert.equal(stdout, `apiwb ${version}\n`);
  });

  void it('the installed apiwb runs the sample collection against the sandbox (exit 0, no secret printed)', async () => {
    assert.ok(apiwb, 'installed by the previous test');
    const { stdout, stderr } = await exec(apiwb, ['run', COLLECTION, '--env', 'sandbox', '--env-file', ws.envFile], { env: env(ws.secrets), cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    const lines = summaryLines(stdout);
    assert.ok(lines.length >= 5, stdout + stderr);
    for (const line of lines) assert.ok(line.ok && line.status === 200, `${line.label}: ${JSON.stringify(line)}`);
    assertNoSecret(ws.secretValues, { code: 0, stdout, stderr });
  });

  void it('without the secrets it fails with exit 1 and says which variable to set', async () => {
    const result = await exec(apiwb, ['run', COLLECTION, '--env', 'sandbox', '--env-file', ws.envFile], { env: env(), cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? '' }),
    );
    assert.equal(result.code, 1);
    assert.match(result.stdout, /APIWB_SECRET_/);
  });
});
