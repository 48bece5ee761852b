// Issue 13: the language server warns when http-client.private.env.json sits in a workspace folder that
// git would commit (a real git repository, a real server over stdio); an ignored file, or a folder that
// is no repository, gets no warning.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { privateEnvWarnings } from '../../src/server/privateEnvWarning';
import { startLspSession } from './lspClient';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function folder(options: { git: boolean; ignored?: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-private-env-'));
  dirs.push(dir);
  if (options.git) execFileSync('git', ['init', '--quiet'], { cwd: dir });
  if (options.ignored) writeFileSync(join(dir, '.gitignore'), 'http-client.private.env.json\n');
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ sandbox: { password: 'not-a-real-one' } }));
  return dir;
}

void test('the server publishes a warning on an unignored private env file and shows a message', async () => {
  const dir = folder({ git: true });
  const session = await startLspSession(undefined, { rootUri: pathToFileURL(dir).toString(), workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }] });
  try {
    const fileUri = pathToFileURL(join(dir, 'http-client.private.env.json')).toString();
    const published = await session.diagnosticsFor(fileUri);
    assert.equal(published.diagnostics.length, 1);
    assert.equal(published.diagnostics[0]?.code, 'private-env-not-ignored');
    assert.equal(published.diagnostics[0]?.severity, 2);
    assert.match(published.diagnostics[0]?.message ?? '', /git would commit it: add it to \.gitignore/);
    assert.ok(!JSON.stringify(published).includes('not-a-real-one'), 'no value of the file is read into the warning');
  } finally {
    await session.close();
  }
});

void test('ignored by git, or not in a repository: no warning', async () => {
  const ignored = folder({ git: true, ignored: true });
  const plain = folder({ git: false });
  assert.deepEqual(await privateEnvWarnings([pathToFileURL(ignored).toString(), pathToFileURL(plain).toString()]), []);
  const committed = folder({ git: true });
  assert.equal((await privateEnvWarnings([pathToFileURL(committed).toString()])).length, 1);
});
