// Prints test results the same way for every runner: one line per test, then `<label>: N passed, N failed, N skipped`
// (scripts/testCounts.mjs reads that line; a skipped test fails the run there and in run.mjs).

/** @typedef {{ title: string, state: 'passed' | 'failed' | 'pending', durationMs: number, error?: string }} TestResult */

/** @param {string} label @param {TestResult[]} results */
export function printResults(label, results) {
  console.log(`\n${label} tests:`);
  for (const r of results) {
    const mark = r.state === 'passed' ? '✔' : r.state === 'failed' ? '✖' : '-';
    console.log(`  ${mark} ${r.title} (${r.durationMs} ms)`);
    if (r.error) console.log(indent(r.error, '      '));
  }
  const passed = results.filter((r) => r.state === 'passed').length;
  const failed = results.filter((r) => r.state === 'failed').length;
  const skipped = results.length - passed - failed;
  console.log(`${label}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return { passed, failed, skipped };
}

/** Parses the extension host's NDJSON results file (one JSON object a line). */
export function parseResultLines(text) {
  return text.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

function indent(text, prefix) {
  return text.split('\n').map((line) => prefix + line).join('\n');
}
