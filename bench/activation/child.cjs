// One measured activation in a fresh process: `vscode` is a stub whose every member is a no-op, except
// window.createTreeView, which keeps every view's data provider, and workspace.textDocuments, which is
// empty (the user opens the view, no .http file is open). What is timed is what a user waits for: the
// bundle's load, activate(), then the first view's first rows (getChildren and the first row's
// getTreeItem), whatever runs on the thread on the way (our workbench bundle, if anything loads it).
// As in the editor, the rows are asked for in a later event than activate() (an IPC round trip), so
// work activate() schedules for "right after" is counted, and every view of the container is asked at
// once (they are visible together), so a view that loads the workbench delays the first one's answer
// if it blocks the thread before that answer. Also reported: when every view had answered
// (its first rows, or an error from the stub), which needs our workbench bundle loaded.
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
const views = [];
const window = new Proxy({}, {
  get: (_t, key) => (key === 'createTreeView'
    ? (id, options) => { views.push({ id, provider: options.treeDataProvider }); return any; }
    : key === 'then' ? undefined : any),
});
const workspace = new Proxy({}, {
  get: (_t, key) => (key === 'textDocuments' ? [] : key === 'then' ? undefined : any),
});
// Commands registered, to run one as the editor would (the first command measure).
const commandHandlers = new Map();
const commands = new Proxy({}, {
  get: (_t, key) => (key === 'registerCommand'
    ? (id, handler) => { commandHandlers.set(id, handler); return any; }
    : key === 'then' ? undefined : any),
});
const vscode = new Proxy({ ...Object.fromEntries(namespaces.map((key) => [key, any])), window, workspace, commands }, {
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
  // APIWB_BENCH_STORAGE: the global storage folder (the workbench's code cache lives there); else none.
  const storage = process.env.APIWB_BENCH_STORAGE;
  extension.activate({
    subscriptions: [], extensionUri: any, globalStorageUri: storage ? { fsPath: storage } : any, secrets: any,
    globalState: any, workspaceState: any, asAbsolutePath: (p) => p,
  });
  const activated = performance.now();
  // APIWB_BENCH_FIRST=command: the user's first act is a command that needs the workbench (Refresh
  // Services), run in a later event; timed until it has run, its workbench loaded.
  if (process.env.APIWB_BENCH_FIRST === 'command') {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const handler = commandHandlers.get('apiWorkbench.refreshServices');
    if (!handler) throw new Error('activate() registered no apiWorkbench.refreshServices');
    await handler();
    const ran = performance.now();
    process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: activated - loaded, commandMs: ran - started }));
    return exit();
  }
  const firstView = views[0];
  if (!firstView) throw new Error('activate() created no tree view');
  await new Promise((resolve) => setTimeout(resolve, 0));
  let firstRows = NaN;
  const asked = views.map(async (view, i) => {
    const rows = await view.provider.getChildren();
    if (!Array.isArray(rows) || (i === 0 && rows.length === 0)) throw new Error(`the ${view.id} view has no rows`);
    if (rows.length > 0) await view.provider.getTreeItem(rows[0]);
    // The rows reach the editor when the extension host's RPC writer flushes its queue, on a setTimeout(0)
    // scheduled as the answer is written (VS Code's ProtocolWriter): anything that blocks the thread
    // before that timer (a bundle loaded on setImmediate, say) delays the rows the user sees.
    if (i === 0) firstRows = await new Promise((resolve) => setTimeout(() => resolve(performance.now()), 0));
    return rows.length;
  }).map((answer, i) => (i === 0 ? answer : answer.catch(() => -1))); // the stub's storage is no folder: a later view may fail after loading the workbench
  const [rows] = await Promise.all(asked);
  const allViews = performance.now();
  process.stdout.write(JSON.stringify({
    loadMs: loaded - started, activateMs: activated - loaded, rowsMs: firstRows - activated, totalMs: firstRows - started,
    allViewsMs: allViews - started, views: views.length, rows, view: firstView.id,
  }));
  return exit();
}
// activate() starts timers (the token countdown); the measurement is done. APIWB_BENCH_PRIME: a run that
// fills the code cache stays until the workbench's code is written (a few seconds after its load).
function exit() {
  if (process.env.APIWB_BENCH_PRIME) setTimeout(() => process.exit(0), 6_000);
  else process.exit(0);
}
main().catch((error) => { console.error(error); process.exit(1); });
