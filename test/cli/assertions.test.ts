// `??` assertions over real HTTP: the built CLI runs a file against the sandbox, prints each failed
// assertion with file:line, expected and actual, says which scripts were not run, exits 1 on a failed
// assertion and 0 when all hold; --reporter junit|json|github write reports of the same run (JUnit's
// shape, JSON round trip, workflow commands with file and line), with no secret in any of them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildCli, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';
import { assertNoSecret, ROOT, runCli, type CliResult } from './cliProcess';
import { assertValidJUnit, readJUnit } from './junitSchema';

const FILE = join(ROOT, 'test', 'fixtures', 'assertions', 'sandbox.http');
const SHOWN = relative(ROOT, FILE);
const LINES = readFileSync(FILE, 'utf8').split('\n');
const lineOf = (text: string): number => LINES.findIndex((l) => l.startsWith(text)) + 1;

interface XmlNode { tagName: string; childNodes: ArrayLike<XmlNode & { nodeType: number }>; getAttribute(name: string): string | null; textContent: string | null }
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: new (options?: unknown) => { parseFromString(text: string, type: string): { documentElement: XmlNode } } };
const elements = (node: XmlNode): XmlNode[] => Array.from(node.childNodes).filter((c) => c.nodeType === 1);

/** The JUnit XML shape CI systems read (Jenkins' junit-10.xsd, GitLab, GitHub test reporters). */
function assertJUnitShape(xml: string): { suites: XmlNode[]; cases: XmlNode[] } {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (_level: string, message: string) => errors.push(message) }).parseFromString(xml, 'text/xml');
  assert.deepEqual(errors, [], 'well-formed XML');
  const root = doc.documentElement;
  assert.equal(root.tagName, 'testsuites');
  const suites = elements(root);
  const cases: XmlNode[] = [];
  let tests = 0;
  let failures = 0;
  for (const suite of suites) {
    assert.equal(suite.tagName, 'testsuite');
    for (const attribute of ['name', 'tests', 'failures', 'errors', 'time']) assert.ok(suite.getAttribute(attribute) !== null, `testsuite@${attribute}`);
    const children = elements(suite);
    assert.ok(children.every((c) => c.tagName === 'testcase' || c.tagName === 'properties'), 'a testsuite holds its properties and testcases');
    const own = children.filter((c) => c.tagName === 'testcase');
    assert.equal(Number(suite.getAttribute('tests')), own.length);
    const failed = own.filter((c) => elements(c).some((e) => e.tagName === 'failure')).length;
    assert.equal(Number(suite.getAttribute('failures')), failed);
    assert.match(suite.getAttribute('time') ?? '', /^\d+(\.\d+)?$/);
    for (const testcase of own) {
      for (const attribute of ['name', 'classname', 'time']) assert.ok(testcase.getAttribute(attribute) !== null, `testcase@${attribute}`);
      const children = elements(testcase);
      assert.ok(children.every((c) => ['failure', 'error', 'skipped', 'system-out', 'system-err'].includes(c.tagName)), 'testcase children');
      assert.ok(children.filter((c) => c.tagName === 'failure').length <= 1, 'at most one failure per testcase');
      for (const failure of children.filter((c) => c.tagName === 'failure')) assert.ok(failure.getAttribute('message'), 'failure@message');
    }
    tests += own.length;
    failures += failed;
    cases.push(...own);
  }
  assert.equal(Number(root.getAttribute('tests')), tests);
  assert.equal(Number(root.getAttribute('failures')), failures);
  return { suites, cases };
}

void describe('assertions over real HTTP', () => {
  let ws: SandboxWorkspace;
  let cli: string;
  const run = (extra: readonly string[]): Promise<CliResult> => runCli(cli, ['run', FILE, '--env', 'sandbox', '--env-file', ws.envFile, ...extra], ws.secrets);
  const reportOf = (name: string): string => readFileSync(join(ws.dir, name), 'utf8');
  const assertNoSecretIn = (text: string): void => {
    for (const secret of ws.secretValues) assert.ok(!text.includes(secret), 'a sandbox secret reached a report');
    assert.doesNotMatch(text, /(Bearer|Basic) (?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}/);
  };

  before(async () => {
    ws = await openSandboxWorkspace();
    cli = await buildCli(ws.dir);
  });
  after(async () => { await ws.close(); });

  void it('all assertions hold: exit 0 and a count on the request line', async () => {
    const result = await run(['--name', 'constituentsPass']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /✓ constituentsPass .* 7\/7 assertions/);
    assert.match(result.stdout, /7 assertions \(0 failed\)/);
    assertNoSecret(ws.secretValues, result);
  });

  void it('a failed assertion: exit 1, each failure with file:line, expected and actual; scripts said not run', async () => {
    const result = await run([]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /✗ emptyQuestionFails .* 2\/4 assertions/);
    const failures = result.stdout.split('\n').filter((l) => /^\s+✗ /.test(l));
    assert.deepEqual(failures.map((l) => l.trim()), [
      `✗ ${SHOWN}:${LINES.lastIndexOf('?? business ok') + 1}  ?? business ok  expected no business error, actual code 12 empty input parameter`,
      `✗ ${SHOWN}:${lineOf('?? status == 201')}  ?? status == 201  expected == 201, actual 200`,
    ]);
    assert.match(result.stdout, new RegExp(`· ${SHOWN.replace(/[.\\/]/g, '\\$&')}:${lineOf('?? js')}  not run: script assertion`));
    assert.match(result.stdout, new RegExp(`· ${SHOWN.replace(/[.\\/]/g, '\\$&')}:${lineOf('> {%')}  not run: response handler script`));
    assertNoSecret(ws.secretValues, result);
  });

  void it('a request that asserts the failure it causes (business code 12, status 404) passes: exit 0', async () => {
    const expected = join(ROOT, 'test', 'fixtures', 'assertions', 'expected-failure.http');
    const result = await runCli(cli, ['run', expected, '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /✓ emptyQuestionExpected .* 2\/2 assertions/);
    assert.match(result.stdout, /✓ unknownConstituentExpected .*404.* 1\/1 assertions/);
  });

  void it('a request line swallowed into a body is a warning on stderr, naming file and line', async () => {
    const file = join(ws.dir, 'swallowed.http');
    writeFileSync(file, `GET ${ws.descriptor.booking.baseUrl}/bookings?page=1\n\nGET ${ws.descriptor.booking.baseUrl}/bookings?page=2\n`);
    const result = await runCli(cli, ['run', file, '--env', 'sandbox', '--env-file', ws.envFile], ws.secrets);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /swallowed\.http:3: warning: .*missing ### before it\?/);
    assert.match(result.stdout, /^1 request, 0 failed/m);
  });

  void it('rows after a walk count every page', async () => {
    const result = await run(['--name', 'constituentsPass', '--all-pages']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /(\d+) rows .*7\/7 assertions/);
    const rows = Number(/(\d+) rows/.exec(result.stdout)?.[1]);
    assert.ok(rows > 50, `more than the first page of 50: ${rows}`);
  });

  void it('--reporter json: a JSON round trip of every request, assertion and script not run', async () => {
    const result = await run(['--reporter', 'json', '--report', join(ws.dir, 'report.json')]);
    assert.equal(result.code, 1);
    const text = reportOf('report.json');
    const report = JSON.parse(text) as { tool: string; requests: Array<{ label: string; file: string; line: number; ok: boolean; assertions: Array<{ line: number; text: string; outcome: string; expected: string; actual: string }>; notRun: Array<{ line: number }> }>; totals: Record<string, number> };
    assert.equal(`${JSON.stringify(report, null, 2)}\n`, text, 'round trip');
    assert.equal(report.tool, 'apiwb');
    assert.deepEqual(report.requests.map((r) => [r.label, r.file, r.line, r.ok]), [
      ['constituentsPass', SHOWN, lineOf('GET {{fundraising_base_url}}'), true],
      ['emptyQuestionFails', SHOWN, lineOf('POST {{engagement_base_url}}'), false],
    ]);
    const failed = report.requests[1]?.assertions.filter((a) => a.outcome === 'failed');
    assert.deepEqual(failed?.map((a) => [a.line, a.text, a.expected, a.actual]), [
      [LINES.lastIndexOf('?? business ok') + 1, 'business ok', 'no business error', 'code 12 empty input parameter'],
      [lineOf('?? status == 201'), 'status == 201', '== 201', '200'],
    ]);
    assert.deepEqual(report.requests[1]?.notRun.map((n) => n.line), [lineOf('?? js'), lineOf('> {%')]);
    // The ?? js line and the handler's client.test are tests not run: skipped, never passed.
    assert.deepEqual(report.totals, { requests: 2, failed: 1, failures: 1, errors: 0, skipped: 2, assertions: 11, assertionsFailed: 2 });
    assertNoSecretIn(text);
  });

  void it('--reporter junit: the JUnit shape, a testcase per request, the failed one with its reasons', async () => {
    const result = await run(['--reporter', 'junit', '--report', join(ws.dir, 'report.xml')]);
    assert.equal(result.code, 1);
    const xml = reportOf('report.xml');
    const { suites, cases } = assertJUnitShape(xml);
    await assertValidJUnit(xml);
    assert.deepEqual(suites.map((s) => s.getAttribute('name')), [SHOWN]);
    assert.deepEqual(cases.map((c) => [c.getAttribute('name'), elements(c).find((e) => ['failure', 'skipped'].includes(e.tagName))?.tagName]), [
      ['constituentsPass', undefined],
      ['emptyQuestionFails', 'failure'],
      ['emptyQuestionFails › ?? js response.parsedBody.ResponseStatus === true', 'skipped'],
      ['emptyQuestionFails › not run here', 'skipped'],
    ]);
    const read = await readJUnit(xml);
    assert.equal(read.suites[0]?.properties['line: constituentsPass'], String(lineOf('GET {{fundraising_base_url}}')));
    assert.equal(read.suites[0]?.properties['line: emptyQuestionFails'], String(lineOf('POST {{engagement_base_url}}')));
    assert.deepEqual([read.suites[0]?.tests, read.suites[0]?.failures, read.suites[0]?.errors, read.suites[0]?.skipped], [4, 1, 0, 2]);
    const failure = elements(cases[1] as XmlNode).find((e) => e.tagName === 'failure');
    assert.equal(failure?.getAttribute('type'), 'assertion');
    assert.match(failure?.textContent ?? '', new RegExp(`:${lineOf('?? status == 201')}: \\?\\? status == 201 — expected == 201, actual 200`));
    assertNoSecretIn(xml);
  });

  void it('--reporter github: workflow-command annotations with file and line (stdout without --report)', async () => {
    const result = await run(['--reporter', 'github']);
    assert.equal(result.code, 1);
    const commands = result.stdout.split('\n').filter((l) => l.startsWith('::'));
    const file = SHOWN.replace(/:/g, '%3A').replace(/,/g, '%2C');
    assert.deepEqual(commands.filter((c) => c.startsWith('::error')).map((c) => /^::error file=([^,]+),line=(\d+),title=[^:]+::/.exec(c)?.slice(1)), [
      [file, String(LINES.lastIndexOf('?? business ok') + 1)],
      [file, String(lineOf('?? status == 201'))],
      [file, String(lineOf('POST {{engagement_base_url}}'))],
    ]);
    assert.equal(commands.filter((c) => c.startsWith('::notice')).length, 2, 'the script assertion and the handler, not run');
    assertNoSecret(ws.secretValues, result);
  });

  void it('bad reporter options are usage errors (exit 2)', async () => {
    for (const extra of [['--reporter', 'tap', '--report', 'x'], ['--reporter', 'junit'], ['--report', join(ws.dir, 'r.txt')]]) {
      const result = await run(extra);
      assert.equal(result.code, 2, `${extra.join(' ')}: ${result.stderr}`);
    }
  });
});
