// Issue 34 in the real editor: Generate Code and Generate Paging Loop open untitled documents of the
// language chosen, holding the request resolved against the active environment and no secret (each is read
// from an APIWB_SECRET_*_TOKEN variable); a credential written literally is refused.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { activatedApi } from './extensionUnderTest';
import { requireSandbox } from './sandbox';
import { useSandboxEnvironment, writeWorkspaceFile } from './editorHelpers';

function assertNoSandboxSecret(text: string, sandbox: ReturnType<typeof requireSandbox>): void {
  const f = sandbox.credentials.fundraising;
  for (const secret of [sandbox.credentials.engagement.password, f.fullAccess.serviceKey, f.jwt.token]) {
    assert.ok(!text.includes(secret), 'a sandbox secret is in the generated code');
  }
}

describe('generate code (issue 34)', () => {
  // The untitled documents stay open until the suite ends: closing one and opening the next at once can
  // hand back the closed one (VS Code reuses the name Untitled-1 while its old document still lingers).
  after(async () => {
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isUntitled && !d.isClosed)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('Generate Code opens a Python document reading the Basic credential from APIWB_SECRET_FUNDRAISING_TOKEN', async () => {
    const api = await activatedApi();
    const sandbox = requireSandbox();
    await useSandboxEnvironment(api);
    const uri = await writeWorkspaceFile('generate.http', '# @name constituents\nGET {{fundraising_base_url}}/v1/constituents?limit=5\nAuthorization: Basic {{$auth.token("fundraising")}}\nX-API-Key: {{tenant_code}}\n');
    await vscode.window.showTextDocument(uri);
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('apiWorkbench.generateCode', undefined, 'python');
    assert.ok(document, 'a document was opened');
    assert.equal(document.languageId, 'python');
    assert.equal(document.isUntitled, true);
    const text = document.getText();
    assert.match(text, /os\.environ\["APIWB_SECRET_FUNDRAISING_TOKEN"\]/);
    assert.ok(text.includes(`${sandbox.fundraising.baseUrl}/v1/constituents`), 'the URL resolved against the active environment');
    assertNoSandboxSecret(text, sandbox);
  });

  it('Generate Paging Loop opens the batch cursor loop in TypeScript, named after the operation', async () => {
    const api = await activatedApi();
    const sandbox = requireSandbox();
    await useSandboxEnvironment(api);
    const uri = await writeWorkspaceFile('generate-loop.http', '# @name assets\nPOST {{engagement_base_url}}/api/CustomerAsset/GetAssets\nAuthorization: Bearer {{$auth.token("engagement")}}\nContent-Type: application/json\n\n{ "BatchSize": 100 }\n');
    await vscode.window.showTextDocument(uri);
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('apiWorkbench.generatePagingLoop', undefined, 'ts');
    assert.ok(document);
    assert.equal(document.languageId, 'typescript');
    const text = document.getText();
    assert.match(text, /export async function walkGetAssets\(/);
    assert.match(text, /customer-engagement contract §4\.2 rule 4/);
    assert.match(text, /process\.env\.APIWB_SECRET_ENGAGEMENT_TOKEN/);
    assertNoSandboxSecret(text, sandbox);
  });

  it('a credential written literally is refused: no document opens', async () => {
    const api = await activatedApi();
    await useSandboxEnvironment(api);
    const uri = await writeWorkspaceFile('generate-literal.http', 'GET {{booking_base_url}}/bookings\nAuthorization: Bearer abc.def.ghi\n');
    await vscode.window.showTextDocument(uri);
    const before = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('apiWorkbench.generateCode', undefined, 'curl');
    assert.equal(document, undefined);
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, before);
  });

  // A `< file` body is read through the trust check (workspaceTrust.ts readIncludedBody), as Send reads it:
  // a file in the workspace folder is read; one outside it only once the user says yes in a modal, which
  // the test editor does not answer (dialogs are not shown to extension tests), so it is not read.
  it('a `< file` body: read in the workspace folder, not read from outside it unasked', async () => {
    const api = await activatedApi();
    await useSandboxEnvironment(api);
    await writeWorkspaceFile('generate-body.json', '{"inside":"inside-marker-5150"}');
    const inside = await writeWorkspaceFile('generate-include.http', 'POST {{booking_base_url}}/bookings\nContent-Type: application/json\n\n< ./generate-body.json\n');
    await vscode.window.showTextDocument(inside);
    const read = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('apiWorkbench.generateCode', undefined, 'curl');
    assert.ok(read?.getText().includes('inside-marker-5150'), 'the body from the workspace folder is in the code');
    const folder = mkdtempSync(join(tmpdir(), 'apiwb-outside-'));
    try {
      writeFileSync(join(folder, 'outside.json'), '{"outside":"outside-marker-7731"}');
      const request = vscode.Uri.joinPath(inside, '..', 'generate-outside.http');
      const path = relative(dirname(request.fsPath), join(folder, 'outside.json')).split('\\').join('/');
      await writeWorkspaceFile('generate-outside.http', `POST {{booking_base_url}}/bookings\nContent-Type: application/json\n\n< ${path}\n`);
      await vscode.window.showTextDocument(request);
      const document = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('apiWorkbench.generateCode', undefined, 'curl');
      assert.equal(document, undefined);
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.getText().includes('outside-marker-7731')), 'the file outside the workspace was not read');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
