// The installable CLI: scripts/pack-cli.mjs packs cli/ (the bundles, its README and licence, nothing else),
// `npm install -g --prefix <tmp>` installs the tarball offline, and the installed `apiwb` prints its
// version, runs the sample collection against the sandbox, and writes every report (junit, json, github):
// the JUnit file valid against Jenkins' junit-10.xsd and read back by a JUnit consumer.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';
import { assertNoSecret, ROOT, summaryLines } from './cliProcess';
import { subcommandModules } from '../../scripts/cliBundles.mjs';
import { REPORTERS } from '../../src/cli/reporters/report';
import { assertValidJUnit, readJUnit } from './junitSchema';
import { closedPort } from './localServer';

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
    // The package's README says what it holds, counted right.
    const readme = readFileSync(join(ROOT, 'cli', 'README.md'), 'utf8');
    assert.match(readme, new RegExp(`${bundles.length} JavaScript files`), 'cli/README.md counts the bundles');
    assert.match(readme, new RegExp(`${bundles.length + 3} files in all`), 'cli/README.md counts the files');
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

  void it('the installed apiwb writes every report: junit valid against junit-10.xsd, json, github relative to the git root', async () => {
    assert.ok(apiwb, 'installed by the previous test');
    // A repository with the requests one folder down, run from that folder (a job's working-directory).
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'ci'), { recursive: true });
    const closed = await closedPort();
    writeFileSync(join(repo, 'ci', 'reports.http'), [
      '# @name listed',
      'GET {{fundraising_base_url}}/v1/constituents?limit=1',
      'Authorization: Basic {{$auth.token("fundraising")}}',
      'X-API-Key: {{tenant_code}}',
      '',
      '> {%',
      '  client.test("listed", function () {});',
      '%}',
      '',
      '###',
      '# @name withoutCredentials',
      'GET {{fundraising_base_url}}/v1/constituents?limit=1',
      '',
      '###',
      '# @name nobodyListens',
      `GET http://127.0.0.1:${closed}/x`,
      '',
    ].join('\n'));
    const outputs: Record<string, string> = {};
    assert.deepEqual([...REPORTERS], ['junit', 'json', 'github'], 'every reporter is run below');
    for (const reporter of REPORTERS) {
      const report = reporter === 'github' ? [] : ['--report', join(dir, `report.${reporter}`)];
      const result = await exec(apiwb, ['run', 'reports.http', '--env', 'sandbox', '--env-file', ws.envFile, '--reporter', reporter, ...report], { env: env(ws.secrets), cwd: join(repo, 'ci') }).then(
        (r) => ({ code: 0, ...r }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
      );
      assert.equal(result.code, 1, `${reporter}: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /3 requests, 2 failed, .*1 test skipped \(not run\)/);
      assertNoSecret(ws.secretValues, { code: 1, stdout: result.stdout, stderr: result.stderr });
      outputs[reporter] = reporter === 'github' ? result.stdout : readFileSync(join(dir, `report.${reporter}`), 'utf8');
    }
    const xml = outputs.junit!;
    await assertValidJUnit(xml);
    const read = await readJUnit(xml);
    assert.deepEqual(read.totals, { tests: 4, failures: 1, errors: 1 });
    assert.deepEqual(read.cases.map((c) => [c.name, c.outcome]), [['listed', 'passed'], ['listed › listed', 'skipped'], ['withoutCredentials', 'failure'], ['nobodyListens', 'error']]);
    const json = JSON.parse(outputs.json!) as { requests: { file: string; line: number }[]; totals: Record<string, number> };
    assert.deepEqual(json.requests.map((r) => [r.file, r.line]), [['reports.http', 2], ['reports.http', 12], ['reports.http', 16]]);
    assert.deepEqual(json.totals, { requests: 3, failed: 2, failures: 1, errors: 1, skipped: 1, assertions: 0, assertionsFailed: 0 });
    const annotations = outputs.github!.split('\n').filter((l) => l.startsWith('::'));
    assert.deepEqual(annotations.map((a) => /^::(\w+) file=([^,]*),line=(\d+),/.exec(a)?.slice(1)), [
      ['notice', 'ci/reports.http', '6'],
      ['error', 'ci/reports.http', '12'],
      ['error', 'ci/reports.http', '16'],
    ]);
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
