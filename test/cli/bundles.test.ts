// The CLI's bundles (scripts/cliBundles.mjs): `apiwb --help` needs only the dispatcher, each subcommand
// has its own bundle beside it, and the list of those bundles is the list of subcommands.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildCliBundles, subcommandFile, subcommandModules } from '../../scripts/cliBundles.mjs';
import { REQUEST_SENDER_FLAGS } from '../../src/cli/v8Flags';
import { subcommands } from '../../src/cli/subcommands';

const exec = promisify(execFile);

void describe('CLI bundles', () => {
  let dir: string;
  let files: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-bundles-'));
    files = await buildCliBundles({ outfile: join(dir, 'apiwb.cjs'), logLevel: 'silent' });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('every subcommand has a bundle of its own, and the dispatcher holds none of them', () => {
    assert.equal(subcommandModules().length, subcommands.length, 'each entry of subcommands.ts loads its module with import(\'./…\')');
    const [dispatcher, ...rest] = files;
    assert.deepEqual(rest, subcommandModules().map((m) => subcommandFile(dispatcher!, m)));
    for (const file of rest) assert.ok(existsSync(file), file);
    // The dispatcher is a few KB; a subcommand bundled into it would make it hundreds.
    assert.ok(statSync(dispatcher!).size < 64 * 1024, `dispatcher is ${statSync(dispatcher!).size} bytes`);
  });

  void it('apiwb --help and --version run without any subcommand bundle; a subcommand without its bundle fails clearly', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'apiwb-bare-'));
    try {
      const only = join(bare, 'apiwb.cjs');
      await buildCliBundles({ outfile: only, logLevel: 'silent' });
      for (const module of subcommandModules()) rmSync(subcommandFile(only, module));
      const help = await exec(process.execPath, [only, '--help']);
      for (const command of subcommands) assert.match(help.stdout, new RegExp(`^  ${command.name} `, 'm'));
      assert.match((await exec(process.execPath, [only, '--version'])).stdout, /^apiwb /);
      const missing = await exec(process.execPath, [only, 'run', '--help']).then(() => undefined, (error: { code?: number; stderr?: string }) => error);
      assert.equal(missing?.code, 1);
      assert.match(missing?.stderr ?? '', /^apiwb: .*apiwb\.runCommand\.cjs/m);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

void describe('the V8 flags of the subcommands that send requests', () => {
  void it('budgets V8 takes: integers up to 2^31 - 1 (a larger one wraps silently and optimises at once)', () => {
    const budgets = [...REQUEST_SENDER_FLAGS.matchAll(/--(wasm-tiering-budget|interrupt-budget|max-inlined-bytecode-size-cumulative)=(\d+)/g)].map((m) => [m[1], Number(m[2])] as const);
    assert.deepEqual(budgets.map(([name]) => name), ['wasm-tiering-budget', 'interrupt-budget', 'max-inlined-bytecode-size-cumulative']);
    for (const [name, value] of budgets) assert.ok(Number.isInteger(value) && value > 0 && value <= 2 ** 31 - 1, `--${name}=${value}`);
  });
});

void describe('the raw node client of the benches', () => {
  void it('runs with the V8 flags apiwb run sets (the baseline keeps every saving apiwb has)', () => {
    const raw = readFileSync(join(import.meta.dirname, '..', '..', 'bench', 'lib', 'rawClient.mjs'), 'utf8');
    assert.ok(raw.includes(`setFlagsFromString('${REQUEST_SENDER_FLAGS}')`), `bench/lib/rawClient.mjs does not set '${REQUEST_SENDER_FLAGS}'`);
  });
});
