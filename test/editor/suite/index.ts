// Entry of the extension-host suites: the standard VS Code test-runner contract, `run(): Promise<void>`.
// Bundled with mocha into out/editor-suite/index.js by scripts/build.mjs; the bundle has no test files
// on disk to glob, so the suites are listed in ./suites and loaded after mocha has set its globals.
import Mocha from 'mocha';
import { suiteModules } from './suites';
import { ResultsFileReporter } from './resultsReporter';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    // Activation inside a freshly loaded editor can take seconds on a busy 2-core machine.
    timeout: 30_000,
    reporter: ResultsFileReporter,
  });
  const grep = process.env.APIWB_EDITOR_GREP;
  if (grep) mocha.grep(grep);
  // Defines describe/it/before/... on globalThis, exactly as the mocha CLI does before requiring a file.
  mocha.suite.emit('pre-require', globalThis, 'api-workbench-editor-suite', mocha);
  for (const load of suiteModules) await load();
  const { failures, total } = await new Promise<{ failures: number; total: number }>((resolve) => {
    const runner = mocha.run((failures) => resolve({ failures, total: runner.total }));
  });
  if (total === 0) throw new Error('editor suite: no test ran (check APIWB_EDITOR_GREP and ./suites)');
  if (failures > 0) throw new Error(`editor suite: ${failures} of ${total} test(s) failed`);
}
