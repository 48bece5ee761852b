// Issue 7 in the real editor: an OpenAPI import of the sandbox's /openapi/v1.json reaches the Services
// tree and the language server (completion of a body field only the import names); a request saved to a
// collection lands as plain .http text in the workspace, holding references and no secret; copy as curl
// hides credentials.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { positionAfter, useSandboxEnvironment, writeWorkspaceFile } from './editorHelpers';

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

describe('collections and interop (issue 7)', () => {
  it('imports the sandbox OpenAPI document: the tree marks what it added and completion offers its body fields', async () => {
    const api = await activatedApi();
    const sandbox = requireSandbox();
    await useSandboxEnvironment(api);
    await vscode.commands.executeCommand('apiWorkbench.importOpenApi', `${sandbox.fundraising.baseUrl}/openapi/v1.json`);

    const create = api.catalog().operationById('fundraising/Constituents/CreateConstituent');
    assert.ok(create?.imported, 'CreateConstituent carries the import mark');
    assert.ok(create.imported.contributed.includes('requestBody'));

    const fundraising = api.servicesTree.getChildren().find((n) => n.kind === 'service' && n.service.id === 'fundraising');
    assert.ok(fundraising);
    const family = api.servicesTree.getChildren(fundraising).find((n) => n.kind === 'family' && n.family.name === 'Constituents');
    assert.ok(family);
    const operation = api.servicesTree.getChildren(family).find((n) => n.kind === 'operation' && n.operation.name === 'CreateConstituent');
    assert.ok(operation);
    assert.match(String(api.servicesTree.getTreeItem(operation).description), /enriched by import/);

    const uri = await writeWorkspaceFile('import-completion.http', [
      'POST {{fundraising_base_url}}/v1/constituents',
      'Authorization: Basic {{$auth.token("fundraising")}}',
      'X-API-Key: {{tenant_code}}',
      'Content-Type: application/json',
      '',
      '{',
      '  ',
      '}',
      '',
    ].join('\n'));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const position = positionAfter(document, '{\n  ');
    // The overlay notification and the document open race; ask until the server has both (bounded).
    let labels: string[] = [];
    for (let attempt = 0; attempt < 50 && !labels.includes('firstName'); attempt++) {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position);
      labels = list.items.map(labelOf);
    }
    assert.ok(labels.includes('firstName'), `completion offers firstName from the import (got ${labels.slice(0, 20).join(', ')})`);
  });

  it('saves a request to a collection as plain .http text with references only', async () => {
    const api = await activatedApi();
    await useSandboxEnvironment(api);
    const scratch = await vscode.commands.executeCommand<vscode.Uri>('apiWorkbench.newScratch', 'engagement/Transaction/GetOrdersByCustomer');
    await vscode.window.showTextDocument(scratch);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder, 'collections', 'orders', 'requests.http');
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.saveToCollection', undefined, target);
    assert.equal(saved?.toString(), target.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(text, /^### GetOrdersByCustomer/m);
    assert.match(text, /Authorization: Bearer \{\{\$auth\.token\("engagement"\)\}\}/);

    const requests = await api.requestsTree.getChildren({ kind: 'group', group: 'collections' });
    const collection = requests.find((n) => n.kind === 'folder' && n.folder.endsWith('collections/orders'));
    assert.ok(collection, `the Requests view lists the collection (got ${requests.map((n) => (n.kind === 'folder' ? n.folder : n.kind)).join(', ')})`);
  });

  it('labels an unnamed request in the Requests view by its whole URL, continuation lines included', async () => {
    const uri = await writeWorkspaceFile('collections/continued/requests.http', 'GET {{booking_base_url}}/bookings\n    ?page=2\n    &size=5\n');
    const api = await activatedApi();
    const collections = await api.requestsTree.getChildren({ kind: 'group', group: 'collections' });
    const folder = collections.find((n) => n.kind === 'folder' && n.folder.endsWith('collections/continued'));
    assert.ok(folder, 'the Requests view lists the folder');
    const [file] = await api.requestsTree.getChildren(folder);
    assert.ok(file && file.kind === 'file' && file.uri.toString() === uri.toString());
    const [request] = await api.requestsTree.getChildren(file);
    assert.ok(request && request.kind === 'request');
    assert.equal(request.label, 'GET {{booking_base_url}}/bookings?page=2&size=5');
  });

  it('refuses to save a request holding a literal credential', async () => {
    const uri = await writeWorkspaceFile('literal-secret.http', 'GET {{booking_base_url}}/bookings\nAuthorization: Bearer abc.def.ghi\n');
    await vscode.window.showTextDocument(uri);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder, 'collections', 'refused', 'requests.http');
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('apiWorkbench.saveToCollection', undefined, target);
    assert.equal(saved, undefined);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(target)), 'no collection file was written');
  });

  it("copies a request as curl: credentials behind the CLI's variables, each explained; the tenant code kept", async () => {
    const uri = await writeWorkspaceFile('curl.http', 'GET {{fundraising_base_url}}/v1/constituents?limit=5\nAuthorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}\n');
    await vscode.window.showTextDocument(uri);
    const command = await vscode.commands.executeCommand<string | undefined>('apiWorkbench.copyAsCurl');
    assert.ok(command);
    assert.match(command, /^# APIWB_SECRET_FUNDRAISING_TOKEN: base64 of apiwb-integration:<service key>, e\.g\. export APIWB_SECRET_FUNDRAISING_TOKEN=.*\$APIWB_SECRET_FUNDRAISING_SERVICE_KEY.*\ncurl /);
    assert.match(command, /\/v1\/constituents\?limit=5/);
    assert.match(command, /-H 'X-API-Key: TENANT-[0-9A-F]+'/, 'the tenant code (an env-file value) stays as written');
    assert.doesNotMatch(command, /Basic [A-Za-z0-9+/=]{8,}/, 'no Basic credential value');
    assert.equal(await vscode.env.clipboard.readText(), command);
  });
});
