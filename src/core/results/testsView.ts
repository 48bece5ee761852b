// The panel's Tests section: a request's `??` results (from the exchange's findings) and the scripts of
// other tools it did not run, redacted, with one-based lines. Undefined when there is nothing to show.
import type { TestsView } from '../../protocol/webviewMessages';
import type { AssertionResult, NotRun } from '../run/assertions';
import type { Redactor } from '../secrets/redact';

export function testsViewOf(results: readonly AssertionResult[], notRun: readonly NotRun[], redactor: Redactor): TestsView | undefined {
  if (results.length === 0 && notRun.length === 0) return undefined;
  return {
    passed: results.filter((r) => r.outcome === 'passed').length,
    failed: results.filter((r) => r.outcome === 'failed').length,
    results: results.map((r) => ({
      line: r.line + 1, text: redactor.text(r.text), outcome: r.outcome, expected: redactor.text(r.expected), actual: redactor.text(r.actual),
    })),
    notRun: notRun.map((n) => ({ line: n.line + 1, what: n.what })),
  };
}
