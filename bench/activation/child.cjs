// One measured activation in a fresh process: `vscode` is a stub whose every member is a no-op, except
// window.createTreeView, which keeps the first view's data provider. What is timed is what a user waits
// for: the bundle's load, activate(), then the first view's first rows (getChildren and the first
// row's getTreeItem), whatever they load on the way (our workbench bundle).
const Module = require('node:module');
const { performance } = require('node:perf_hooks');

const prototype = {};
function stub() {
  const fn = function () { return proxy; };
  const proxy = new Proxy(fn, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : key === 'prototype' ? prototype : proxy),
    set: () => true,
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}
const any = stub();
// A module whose every member is the stub; its own keys are listed because esbuild's ESM interop copies
// a module's own enumerable properties (vscode-languageclient reads others, e.g. classes to extend).
const namespaces = [
  'window', 'workspace', 'commands', 'languages', 'env', 'extensions', 'Uri', 'EventEmitter', 'Disposable', 'TreeItem',
  'ThemeIcon', 'ThemeColor', 'MarkdownString', 'Position', 'Range', 'Selection', 'Location', 'StatusBarAlignment',
  'TreeItemCollapsibleState', 'ProgressLocation', 'ViewColumn', 'FileType', 'CancellationTokenSource', 'version',
];
let firstView;
const window = new Proxy({}, {
  get: (_t, key) => (key === 'createTreeView'
    ? (id, options) => { firstView ??= { id, provider: options.treeDataProvider }; return any; }
    : key === 'then' ? undefined : any),
});
const vscode = new Proxy({ ...Object.fromEntries(namespaces.map((key) => [key, any])), window }, {
  get: (target, key) => (key === 'then' ? undefined : key === '__esModule' ? false : target[key] ?? any),
});
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
};

const bundle = process.argv[2];
async function main() {
  const started = performance.now();
  const extension = require(bundle);
  const loaded = performance.now();
  extension.activate({
    subscriptions: [], extensionUri: any, globalStorageUri: any, secrets: any,
    globalState: any, workspaceState: any, asAbsolutePath: (p) => p,
  });
  const activated = performance.now();
  if (!firstView) throw new Error('activate() created no tree view');
  const rows = await firstView.provider.getChildren();
  if (!Array.isArray(rows) || rows.length === 0) throw new Error(`the ${firstView.id} view has no rows`);
  await firstView.provider.getTreeItem(rows[0]);
  const firstRows = performance.now();
  process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: activated - loaded, rowsMs: firstRows - activated, totalMs: firstRows - started, rows: rows.length, view: firstView.id }));
  // activate() starts timers (the token countdown); the measurement is done.
  process.exit(0);
}
main().catch((error) => { console.error(error); process.exit(1); });
