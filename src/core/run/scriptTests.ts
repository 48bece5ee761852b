// THE rule for which tests another tool's script would have run: a construct kept and not run
// (assertions.ts, notRunOf) that holds tests makes each of them a test not run, reported as skipped (JUnit
// `<skipped/>`, the JSON totals, the summary line), never as passed. Read from the text, never run:
//   JetBrains HTTP Client  `client.test("name", function () { … })` in a `> {% %}` or `< {% %}` script
//   httpYac                `test("name", () => …)` and `test.status(200)`, `test.header(…)`, … in a
//                          `{{ }}` script block; a `?? js …` / `?? xpath …` line is one test (its text)
// Each test is named by its first argument when that is a string, else by the call as written.

/** JetBrains: `client.test(` with its quoted name. */
const CLIENT_TEST = /\bclient\s*\.\s*test\s*\(\s*(?:(["'`])((?:(?!\1)[^\\]|\\.)*)\1)?/g;
/** httpYac: `test(` with its quoted name, or `test.status(…)` and the other shorthands (not `client.test`). */
const HTTPYAC_TEST = /(?<![\w.$])test\s*(?:\(\s*(?:(["'`])((?:(?!\1)[^\\]|\\.)*)\1)?|\.\s*(\w+)\s*\(([^)\n]*)\))/g;

/** The tests a JetBrains request or response handler script holds, by name. */
export function jetBrainsTests(script: string): string[] {
  return [...script.matchAll(CLIENT_TEST)].map((m) => m[2] ?? 'client.test');
}

/** The tests an httpYac `{{ }}` script block holds, by name. */
export function httpYacTests(script: string): string[] {
  return [...script.matchAll(HTTPYAC_TEST)].map((m) => (m[3] !== undefined ? `test.${m[3]}(${m[4]!.trim()})` : m[2] ?? 'test'));
}
