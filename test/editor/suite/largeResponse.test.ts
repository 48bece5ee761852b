// Issue 37 in the real editor: a response of about 52 MB from a server of the test's own (127.0.0.1, port 0) is
// kept on disk, not in the extension host: the panel gets its first rows at once, any later row (the last
// one, as a scroll to the end asks for it) is read from the spill file, redacted; the host's memory does
// not grow with the body; the spill files are gone once the panel closes.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { activatedApi } from './extensionUnderTest';
import { writeWorkspaceFile } from './editorHelpers';
import { startRowsServer, type RowsServer } from '../../fixtures/rowsServer';

const ROWS = 500_000;
const row = (i: number): string => `{"id":${i},"name":"row ${i}","secret_key":"sk-${i}","amount":${i * 1.5},"note":"${'x'.repeat(50)}"}`;

/**
 * What the extension host holds once garbage is collected: the JS heap (a body's text, its rows) and the
 * memory of Buffers outside it (a body's bytes). A collection frees a dead Buffer's memory a turn later, so
 * it runs twice with a turn after each; read after one, buffers already dead still counted.
 */
async function held(): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  if (typeof gc !== 'function') throw new Error('this extension host does not let the test collect garbage (--expose-gc)');
  for (let i = 0; i < 2; i++) {
    (gc as () => void)();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** The spill folders (core/json/spill.ts) under the OS temp folder now, with a body in them. */
function spillFolders(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('apiwb-body-')).map((name) => join(tmpdir(), name)).filter((dir) => existsSync(join(dir, 'body')));
}

describe('a large response in the results panel, from disk (issue 37)', () => {
  let api: ApiWorkbenchTestApi;
  let server: RowsServer;
  let url = '';
  let bodyBytes = 0;

  before(async () => {
    api = await activatedApi();
    // Streamed in pieces: the test's own process never holds the body either.
    server = await startRowsServer(ROWS, row);
    url = `${server.base}/rows`;
    bodyBytes = server.bodyBytes;
  });
  after(() => server.close());

  it('shows the first rows at once and the last row from disk; the files go when the panel closes', async function () {
    this.timeout(180_000);
    const file = await writeWorkspaceFile('large-response.http', `### Half a million rows\nGET ${url}\n`);
    const earlier = new Set(spillFolders());
    const before = process.memoryUsage();
    const heldBefore = await held();
    const response = await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: file.toString(), requestIndex: 0 });
    const after = process.memoryUsage();
    const heldAfter = await held();
    assert.equal(response?.status, 200);
    assert.equal(response?.sizeBytes, bodyBytes, `the whole body arrived (${bodyBytes} bytes)`);
    const vm = api.results.viewModel;
    assert.ok(vm?.table, 'the panel shows a table');
    assert.equal(vm.table.pagedRows, ROWS, 'every row counted, read from disk as the table scrolls');
    assert.equal(vm.table.rows.length, 200, 'the first rows go with the show');
    assert.equal((vm.table.rows[0] as { id: number }).id, 0);
    assert.notEqual((vm.table.rows[0] as { secret_key: string }).secret_key, 'sk-0', 'a secret-named field is masked');
    assert.deepEqual(vm.body.page, { index: 0, count: Math.ceil(bodyBytes / (256 * 1024)) });
    const source = api.results.sourceOf(vm.id);
    assert.ok(source, 'the response is on disk behind the panel');
    const last = await source.rows(ROWS - 1, 50);
    assert.equal(last.rows.length, 1);
    assert.equal((last.rows[0] as { id: number }).id, ROWS - 1);
    assert.notEqual((last.rows[0] as { secret_key: string }).secret_key, `sk-${ROWS - 1}`);
    const lastPage = await source.bodyPage(Number.MAX_SAFE_INTEGER);
    assert.ok(lastPage.text.includes(`"id": ${ROWS - 1}`), 'the last page of the raw body holds the last row');
    assert.ok(!lastPage.text.includes(`sk-${ROWS - 1}`));
    const mib = (bytes: number): string => (bytes / 1048576).toFixed(0);
    console.log(`extension host: rss ${mib(before.rss)} → ${mib(after.rss)} MiB, heap and buffers held ${mib(heldBefore)} → ${mib(heldAfter)} MiB for a ${mib(bodyBytes)} MiB body`);
    // Held, the body's bytes or text alone are its size and its rows several times that; kept on disk, the
    // panel holds its first rows. rss is not the measure: it counts garbage not collected yet and varies with the load.
    assert.ok(heldAfter - heldBefore < bodyBytes / 4, `the extension host holds less than a quarter of the body after a collection (${mib(heldAfter - heldBefore)} MiB more)`);
    // The spill files: the body's copy and the rows', each in a folder of its own under the OS temp folder.
    const ours = spillFolders().filter((dir) => !earlier.has(dir) && statSync(join(dir, 'body')).size >= bodyBytes / 2);
    assert.equal(ours.length, 2, `the body and its rows on disk: ${ours.join(', ')}`);
    for (const dir of ours) assert.equal(statSync(join(dir, 'body')).mode & 0o777, 0o600);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(api.results.isOpen, false, 'the panel closed');
    assert.equal(api.results.sourceOf(vm.id), undefined, 'the panel let the response go');
    await source.dispose(); // the removal the panel started, awaited
    await assert.rejects(source.rows(0, 1), /removed/, 'its rows are gone with the files');
    assert.deepEqual(ours.filter((dir) => existsSync(dir)), [], 'the spill folders are removed');
  });
});
