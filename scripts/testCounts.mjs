// The summary lines of every runner `npm test` drives, counted into one total: node's test runner
// (`ℹ pass N`, `ℹ fail N`, `ℹ skipped N`, `ℹ todo N`) and the editor harness (`editor: N passed,
// N failed, N skipped`, `ui: …`, `secrets: …`). Skips are counted so that the run can refuse them.

/** Adds the counts one output line carries (if any) to `into` ({ passed, failed, skipped }). */
export function countLine(line, into) {
  // eslint-disable-next-line no-control-regex -- the ESC of an ANSI colour code, what the pattern removes
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  let m;
  if ((m = /^ℹ pass (\d+)$/.exec(plain))) into.passed += Number(m[1]);
  else if ((m = /^ℹ fail (\d+)$/.exec(plain))) into.failed += Number(m[1]);
  else if ((m = /^ℹ (?:skipped|todo) (\d+)$/.exec(plain))) into.skipped += Number(m[1]);
  else if ((m = /^\w+: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/.exec(plain))) {
    into.passed += Number(m[1]);
    into.failed += Number(m[2]);
    into.skipped += Number(m[3] ?? 0);
  }
}
