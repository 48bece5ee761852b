// One measured activation in a fresh process: `vscode` is a stub whose every member is a no-op, so
// what is timed is the bundle's load (parse + module init) and activate()'s own synchronous work.
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
const vscode = new Proxy(Object.fromEntries(namespaces.map((key) => [key, any])), {
  get: (target, key) => (key === 'then' ? undefined : key === '__esModule' ? false : target[key] ?? any),
});
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, ...rest);
};

const bundle = process.argv[2];
const started = performance.now();
const extension = require(bundle);
const loaded = performance.now();
extension.activate({
  subscriptions: [], extensionUri: any, globalStorageUri: any, secrets: any,
  globalState: any, workspaceState: any, asAbsolutePath: (p) => p,
});
const activated = performance.now();
process.stdout.write(JSON.stringify({ loadMs: loaded - started, activateMs: activated - loaded, totalMs: activated - started }));
// activate() starts timers (the token countdown); the measurement is done.
process.exit(0);
