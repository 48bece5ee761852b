// Every report (junit, json, github) goes through the run's Redactor: a secret in a URL, a problem, a
// business failure or an assertion's actual value never reaches the file; workflow commands escape
// what would end or split them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../src/core/secrets/redact';
import { redactReport, REPORTERS, type RunReport } from '../../src/cli/reporters/report';
import { renderReport, runReportOf } from '../../src/cli/reporters/runReport';

const SECRET = 's3cr3t-service-key-42';
const report: RunReport = {
  tool: 'apiwb', version: '0.0.0', startedAt: '2026-01-01T00:00:00.000Z', durationMs: 12,
  requests: [{
    file: 'a,b:c.http', line: 3, label: 'leaky <one> & "two"', method: 'GET', url: `https://perm:${SECRET}@x.test/v1?key=${SECRET}`,
    status: 500, durationMs: 7, ok: false, problem: `upstream said Bearer ${SECRET}`, businessFailures: [`code 9 ${SECRET}`],
    assertions: [{ line: 5, text: 'body $.token == x', subject: 'body', outcome: 'failed', expected: '== x', actual: `${SECRET}\nsecond line 100%` }],
    notRun: [{ line: 7, what: 'response handler script (> {% %})' }],
  }],
};

for (const name of REPORTERS) {
  void test(`${name}: no secret survives redaction`, () => {
    const text = renderReport(name, redactReport(report, new Redactor([SECRET])));
    assert.ok(!text.includes(SECRET), text);
    assert.match(text, /\*\*\*/);
  });
}

void test('github: data and properties are escaped so one annotation stays one line', () => {
  const lines = renderReport('github', redactReport(report, new Redactor([SECRET]))).trimEnd().split('\n');
  assert.ok(lines[0]?.startsWith('::error file=a%2Cb%3Ac.http,line=5,title=apiwb%3A leaky <one> & "two"::'), lines[0]);
  assert.match(lines[0] ?? '', /%0Asecond line 100%25$/);
  assert.equal(lines.filter((l) => l.startsWith('::')).length, 3);
});

void test('junit: markup in names and messages is escaped', () => {
  const xml = renderReport('junit', report);
  assert.match(xml, /name="leaky &lt;one&gt; &amp; &quot;two&quot;"/);
  assert.doesNotMatch(xml, /<one>/);
});

void test('github: server and file text cannot drive the terminal (ESC, OSC, bidi overrides become visible escapes)', () => {
  const hostile: RunReport = {
    ...report,
    requests: [{
      ...report.requests[0]!, label: 'name\u001b]0;owned\u0007', problem: 'upstream \u001b[2J\u001b[1;1Hcleared', businessFailures: ['code 9 \u202eevil'],
      assertions: [{ line: 5, text: 'body $.x == 1', subject: 'body', outcome: 'failed', expected: '== 1', actual: '\u001b[31mred\u009b' }],
    }],
  };
  const text = renderReport('github', hostile);
  assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, JSON.stringify(text));
  assert.match(text, /\\x1b\[2J/);
  assert.match(text, /red\\x9b/);
  assert.equal(text.trimEnd().split('\n').length, 4, 'three annotations and the totals line: no line added');
});

void test('requests not run and an input fault are entries too: errors, in file order, with file and line', () => {
  const ran = { file: 'a.http', line: 10, label: 'second', method: 'GET', url: 'http://h/2', status: 200, businessFailures: [], ok: true };
  const built = runReportOf([ran], { startedAt: '2026-01-01T00:00:00.000Z', durationMs: 5 }, {
    notRun: [{ file: 'a.http', line: 3, name: 'stream', reason: 'gRPC is not sent as HTTP', tool: 'httpYac' }, { file: 'b.http', line: 0, reason: 'WEBSOCKET is not supported' }],
  });
  assert.deepEqual(built.requests.map((r) => [r.file, r.line, r.label, r.ok, r.error]), [
    ['a.http', 3, 'stream', false, 'not-run'],
    ['a.http', 10, 'second', true, undefined],
    ['b.http', 1, 'b.http:1', false, 'not-run'],
  ]);
  assert.equal(built.requests[0]!.problem, 'not run: gRPC is not sent as HTTP (httpYac)');
  const xml = renderReport('junit', built);
  assert.match(xml, /<testsuites name="apiwb run" tests="3" failures="0" errors="2"/);
  assert.match(xml, /<error message="not run: gRPC is not sent as HTTP \(httpYac\)" type="not-run">/);
  assert.doesNotMatch(renderReport('github', built), /line=0|file=,/);
  const fault = runReportOf([], { startedAt: '2026-01-01T00:00:00.000Z', durationMs: 0 }, { inputFault: { file: 'env.json', message: 'broken' } });
  assert.deepEqual(fault.requests.map((r) => [r.file, r.line, r.error]), [['env.json', 1, 'input']], 'a file-level fault: the file\'s first line');
});
