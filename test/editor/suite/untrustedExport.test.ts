// Issue 29 item 5 in the real editor: the results panel's Export to CSV neutralises cells and keys a
// spreadsheet would run as formulas (=, +, -, @, TAB, CR first; numbers untouched), and the setting
// apiWorkbench.export.csvFormulas = raw writes them as they came. Rows come from a small server of the
// test's own on 127.0.0.1 (port 0), sent through the real Send command.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { HttpResponse } from '../../../src/core/http/types';
import type { ApiWorkbenchTestApi } from '../../../src/extension/testApi';
import { activatedApi } from './extensionUnderTest';
import { exportShownResponse, writeWorkspaceFile } from './editorHelpers';

const ROWS = [
  { name: '=HYPERLINK("http://evil.test/","x")', '@key': 'plain', n: -5, note: '+1 555 0100' },
  { name: '@SUM(1+1)', '@key': '-2', n: 3, note: '\tTAB' },
];

describe('CSV export of the results panel (issue 29)', () => {
  let api: ApiWorkbenchTestApi;
  let server: Server;
  let base = '';

  before(async () => {
    api = await activatedApi();
    server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(ROWS));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await vscode.workspace.getConfiguration('apiWorkbench').update('export.csvFormulas', undefined, vscode.ConfigurationTarget.Global);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Sends the rows request, presses Export CSV, and gives the file's lines. */
  async function exportedLines(): Promise<string[]> {
    const uri = await writeWorkspaceFile('formula-rows.http', `###\n# @name formulaRows\nGET ${base}/rows\n`);
    assert.equal((await vscode.commands.executeCommand<HttpResponse | undefined>('apiWorkbench.send', { uri: uri.toString(), requestIndex: 0 }))?.status, 200);
    assert.ok(api.results.viewModel?.table, 'the rows are a table');
    return (await exportShownResponse(api, 'csv')).split('\r\n').filter(Boolean);
  }

  it('neutralises formula cells and keys by default; numbers stay as they are', async () => {
    const [header, first, second] = await exportedLines();
    assert.equal(header, "name,'@key,n,note,_extra");
    assert.equal(first, `"'=HYPERLINK(""http://evil.test/"",""x"")",plain,-5,'+1 555 0100,`);
    assert.equal(second, `'@SUM(1+1),-2,3,'\tTAB,`);
  });

  it('writes them raw when apiWorkbench.export.csvFormulas is raw', async () => {
    await vscode.workspace.getConfiguration('apiWorkbench').update('export.csvFormulas', 'raw', vscode.ConfigurationTarget.Global);
    const [header, first] = await exportedLines();
    assert.equal(header, 'name,@key,n,note,_extra');
    assert.equal(first, `"=HYPERLINK(""http://evil.test/"",""x"")",plain,-5,+1 555 0100,`);
  });
});
