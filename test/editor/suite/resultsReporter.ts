// A mocha reporter for the extension host: one console line per test (the runner forwards the
// extension host's console to its log) and one JSON line per test appended to the file named by
// APIWB_EDITOR_RESULTS, so results survive even when the extension host dies mid-run.
import Mocha from 'mocha';
import { appendFileSync } from 'node:fs';

export interface EditorTestResult {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'pending';
  readonly durationMs: number;
  readonly error?: string;
}

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

export class ResultsFileReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const file = process.env.APIWB_EDITOR_RESULTS;
    const record = (result: EditorTestResult): void => {
      const mark = result.state === 'passed' ? 'ok  ' : result.state === 'failed' ? 'FAIL' : 'skip';
      console.log(`[editor-suite] ${mark} ${result.title} (${result.durationMs} ms)${result.error ? `\n${result.error}` : ''}`);
      if (file) appendFileSync(file, `${JSON.stringify(result)}\n`);
    };
    runner.on(EVENT_TEST_PASS, (test) => record({ title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 }));
    runner.on(EVENT_TEST_PENDING, (test) => record({ title: test.fullTitle(), state: 'pending', durationMs: 0 }));
    runner.on(EVENT_TEST_FAIL, (test, error: Error) =>
      record({ title: test.fullTitle(), state: 'failed', durationMs: test.duration ?? 0, error: error.stack ?? String(error) }),
    );
    runner.once(EVENT_RUN_END, () => console.log(`[editor-suite] end: ${this.stats.passes} passed, ${this.stats.failures} failed`));
  }
}
