// Loads the workbench bundle (dist/workbench.js, beside the activation bundle) through V8's code cache,
// by the one rule the CLI's bundles load by too (src/core/files/codeCache.ts: entries signed with a key
// of this user's, read only from a folder that is this user's alone, any fault a normal load). The cache lives in the extension's
// global storage. Compiling the bundle is about half of what the first view or command waits for after
// activation; with the code of an earlier session the compile is mostly skipped. A load with no usable
// entry writes one a few seconds later, once the code that ran by then (views, commands) is compiled.
import { join } from 'node:path';
import { loadBundle } from '../core/files/codeCache';

type WorkbenchModule = typeof import('./workbench');
type LanguageClientModule = typeof import('./languageClient');

/** How long after a load without cached code its code is written for the next session. */
const SAVE_AFTER_MS = 5_000;

/** The workbench module; `storage`: the extension's global storage folder (undefined: no cache). */
export function requireWorkbench(storage: string | undefined): WorkbenchModule {
  return requireBundle('workbench.js', storage) as WorkbenchModule;
}

/** The language client's bundle (dist/languageClient.js), loaded by the workbench once the views have answered. */
export function requireLanguageClient(storage: string | undefined): LanguageClientModule {
  return requireBundle('languageClient.js', storage) as LanguageClientModule;
}

function requireBundle(name: string, storage: string | undefined): unknown {
  const file = join(__dirname, name);
  // A fault of the cache (unreadable, damaged, not this user's) is a normal load inside loadBundle; a
  // throw here is the bundle's own and is reported as the workbench failing to load.
  const loaded = loadBundle(file, storage === undefined ? undefined : join(storage, 'code-cache'));
  if (loaded.state === 'cold' || loaded.state === 'rejected') setTimeout(() => void loaded.save(), SAVE_AFTER_MS).unref();
  return loaded.exports;
}
