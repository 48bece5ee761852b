// Issue 30: the language server reads the env file's variable names itself when the client sends none
// (a real server over stdio, real files). A document below the workspace finds the nearest env file above
// it; a workspace/didChangeWatchedFiles notification makes it read the files again; a file that stops
// parsing keeps the names it had; the names the client sends (the extension's environmentChanged) win.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CompletionRequest, DidChangeWatchedFilesNotification, DidOpenTextDocumentNotification, FileChangeType, type CompletionItem, type CompletionList,
} from 'vscode-languageserver-protocol/node';
import { EnvironmentChangedNotification } from '../../src/protocol/lsp';
import { startLspSession, type LspSession } from './lspClient';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function workspace(env: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-env-names-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(env));
  return dir;
}

async function labels(session: LspSession, uri: string): Promise<string[]> {
  const list = await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 7 } }) as CompletionList | CompletionItem[];
  return (Array.isArray(list) ? list : list.items).filter((i) => i.kind === 6).map((i) => i.label).sort();
}

async function open(session: LspSession, path: string, version = 1): Promise<string> {
  writeFileSync(path, 'GET {{\n');
  const uri = pathToFileURL(path).toString();
  await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'http', version, text: 'GET {{\n' } });
  return uri;
}

void test('names from the nearest env file above the document, read again on a watched-file change; a broken file keeps its names', async () => {
  const dir = workspace({ dev: { base_url: 'http://a', Security: { Auth: {} } } });
  mkdirSync(join(dir, 'api', 'nested'), { recursive: true });
  writeFileSync(join(dir, 'api', 'http-client.env.json'), JSON.stringify({ $shared: { shared_one: '1' }, dev: { nested_base: 'http://b' } }));
  const session = await startLspSession(undefined, { rootUri: pathToFileURL(dir).toString(), workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }] });
  try {
    const uri = await open(session, join(dir, 'api', 'nested', 'req.http'));
    assert.deepEqual(await labels(session, uri), ['base_url', 'nested_base', 'shared_one']);

    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { base_url: 'http://a', renamed: 'x' } }));
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(join(dir, 'http-client.env.json')).toString(), type: FileChangeType.Changed }] });
    assert.deepEqual(await labels(session, uri), ['base_url', 'nested_base', 'renamed', 'shared_one']);

    writeFileSync(join(dir, 'http-client.env.json'), '{ "dev": { "base_url": ');
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(join(dir, 'http-client.env.json')).toString(), type: FileChangeType.Changed }] });
    assert.deepEqual(await labels(session, uri), ['base_url', 'nested_base', 'renamed', 'shared_one'], 'the names read before are kept');
  } finally {
    await session.close();
  }
});

void test('the names the client sends win over the files', async () => {
  const dir = workspace({ dev: { from_file: 'x' } });
  const session = await startLspSession(undefined, { rootUri: pathToFileURL(dir).toString() });
  try {
    const uri = await open(session, join(dir, 'a.http'));
    assert.deepEqual(await labels(session, uri), ['from_file']);
    await session.connection.sendNotification(EnvironmentChangedNotification, { environment: 'dev', variables: ['from_client'] });
    assert.deepEqual(await labels(session, uri), ['from_client']);
  } finally {
    await session.close();
  }
});
