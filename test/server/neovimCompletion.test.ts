// Issue 30, must show: Neovim (headless, its built-in LSP client, no plugin, no settings) completes
// `{{variables}}` from the env file through `apiwb lsp --stdio`. The server reads the names itself:
// http-client.env.json's and http-client.private.env.json's (names only: no value of the private file in
// any answer), and reads them again when a document opens after the file changed (Neovim 0.7 offers no
// file watching). `npm test` installs nvim first (scripts/ensure-debian-packages.sh neovim); without it
// the test fails saying how to install it (no test is skipped).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const absent = nvim.error ? 'nvim is not installed: run bash scripts/ensure-debian-packages.sh neovim (npm test does it first)' : false;

const PRIVATE_VALUE = 'nvim-private-9c41e7';

interface Item { readonly label: string; readonly detail: string | null; readonly documentation: unknown }
interface Result { readonly version?: string; readonly before?: Item[]; readonly after?: Item[]; readonly error?: string }

void test('Neovim completes {{variables}} from the env file with no client settings', { timeout: 120_000 }, async () => {
  assert.equal(absent, false, absent || undefined);
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-nvim-'));
  try {
    const workspace = join(dir, 'workspace');
    const home = join(dir, 'home');
    for (const d of [workspace, home]) spawnSync('mkdir', ['-p', d]);
    writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({
      $shared: { api_version: 'v1' },
      sandbox: { base_url: 'http://127.0.0.1:1', tenant_code: 'T-1', Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{base_url}}/token', Username: 'ann' } } } },
      production: { base_url: 'http://127.0.0.1:2' },
    }));
    writeFileSync(join(workspace, 'http-client.private.env.json'), JSON.stringify({ sandbox: { db_password: PRIVATE_VALUE } }));
    writeFileSync(join(workspace, 'first.http'), 'GET {{\n');
    writeFileSync(join(workspace, 'second.http'), 'GET {{\n');
    const changedEnv = JSON.stringify({ sandbox: { base_url: 'http://127.0.0.1:1', added_later: 'x' } });
    const out = join(dir, 'result.json');
    const env = {
      ...process.env,
      HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share'), XDG_STATE_HOME: join(home, '.local/state'), XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(home, '.cache'),
      APIWB_NVIM_OUT: out, APIWB_NVIM_WORKSPACE: workspace, APIWB_NVIM_ROOT: ROOT, APIWB_NVIM_NODE: process.execPath, APIWB_NVIM_CHANGED_ENV: changedEnv,
    };
    const init = join(import.meta.dirname, 'nvim', 'init.lua');
    await new Promise<void>((resolve, reject) => {
      execFile('nvim', ['--headless', '-n', '-i', 'NONE', '-u', init], { cwd: workspace, env, timeout: 110_000 }, (error, stdout, stderr) => {
        if (error && (error as { killed?: boolean }).killed) reject(new Error(`nvim did not finish: ${stdout}${stderr}`));
        else resolve();
      });
    });
    const result = JSON.parse(readFileSync(out, 'utf8')) as Result;
    assert.equal(result.error, undefined, result.error);
    const labels = (items: Item[] | undefined): string[] => (items ?? []).map((i) => i.label);
    for (const name of ['api_version', 'base_url', 'tenant_code', 'db_password']) assert.ok(labels(result.before).includes(name), `${name} in ${labels(result.before).join(', ')}`);
    assert.ok(!labels(result.before).includes('Security'), 'an auth section is not a variable');
    assert.match(result.before?.find((i) => i.label === 'base_url')?.detail ?? '', /sandbox, production/);
    assert.match(result.before?.find((i) => i.label === 'db_password')?.detail ?? '', /private/);
    assert.ok(!JSON.stringify(result).includes(PRIVATE_VALUE), 'no value of the private file in any answer');
    assert.ok(labels(result.after).includes('added_later'), `the changed env file was read again: ${labels(result.after).join(', ')}`);
    assert.ok(!labels(result.after).includes('tenant_code'), 'a name the file no longer declares is gone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
