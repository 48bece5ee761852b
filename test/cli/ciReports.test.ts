// Reports that CI systems read right, over real HTTP on loopback (a server of this test's own, and a port
// nothing listens on): every entry has a file and a line; tests of other tools' scripts (JetBrains
// client.test, httpYac test(...) blocks, ?? js) are skipped, never passed; a lost connection is a JUnit
// error, a bad status a failure; the JUnit file is valid against Jenkins' junit-10.xsd and read back by a
// JUnit consumer; GitHub annotation paths are relative to the repository root; an input error (exit 2)
// still writes the report asked for, and never over an input.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { closedPort, startLocalServer, type LocalServer } from './localServer';
import { runInProcess } from './inProcess';
import { assertValidJUnit, junitSchemaErrors, readJUnit } from './junitSchema';
import { planRequests } from '../../src/cli/runPlan';
import { thrownOutcome } from '../../src/cli/runOutput';
import { renderReport, runReportOf } from '../../src/cli/reporters/runReport';
import { Redactor } from '../../src/core/secrets/redact';

const lines = (text: string): string[] => text.split('\n');
/** A path as apiwb shows it: relative to the working directory when below it. */
const shownOf = (path: string): string => (relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path));

void describe('CI reports of apiwb run', () => {
  let server: LocalServer;
  let file: string;
  let text: string;
  const lineOf = (start: string): number => lines(text).findIndex((l) => l.startsWith(start)) + 1;

  before(async () => {
    server = await startLocalServer('apiwb-ci-', (req, res) => {
      res.writeHead(req.url === '/broken' ? 500 : 200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    mkdirSync(join(server.dir, 'requests', 'nested'), { recursive: true });
    file = join(server.dir, 'requests', 'nested', 'ci.http');
    text = [
      '# @name jetbrainsTests',
      'GET {{base}}/fine',
      '',
      '> {%',
      '  client.test("status is 200", function () { client.assert(response.status === 200); });',
      '  client.test("body is json", function () {});',
      '%}',
      '',
      '###',
      '# @name httpyacTests',
      'GET {{base}}/fine',
      '',
      '?? status == 200',
      '?? js response.parsedBody.ok === true',
      '',
      '{{',
      '  test("body ok", () => { expect(response.parsedBody.ok).toBe(true); });',
      '  test.status(200);',
      '}}',
      '',
      '###',
      '# @name brokenServer',
      'GET {{base}}/broken',
      '',
      '###',
      '# @name nobodyListens',
      `GET http://127.0.0.1:${await closedPort()}/x`,
      '',
    ].join('\n');
    writeFileSync(file, text);
  });
  after(() => server.close());

  const run = (extra: readonly string[], env: Record<string, string> = {}) => runInProcess([file, '--env', 'local', '--env-file', server.envFile, ...extra], env);
  const shown = (): string => shownOf(file);

  void it('junit: valid against junit-10.xsd; a consumer reads 9 tests, 1 failure, 1 error, 5 skipped', async () => {
    const report = join(server.dir, 'report.xml');
    const result = await run(['--reporter', 'junit', '--report', report]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const xml = readFileSync(report, 'utf8');
    await assertValidJUnit(xml);
    const read = await readJUnit(xml);
    assert.deepEqual(read.totals, { tests: 9, failures: 1, errors: 1 });
    assert.deepEqual(read.suites.map((s) => [s.name, s.tests, s.failures, s.errors, s.skipped]), [[shown(), 9, 1, 1, 5]]);
    assert.deepEqual(read.cases.map((c) => [c.name, c.outcome, c.type]), [
      ['jetbrainsTests', 'passed', undefined],
      ['jetbrainsTests › status is 200', 'skipped', undefined],
      ['jetbrainsTests › body is json', 'skipped', undefined],
      ['httpyacTests', 'passed', undefined],
      ['httpyacTests › ?? js response.parsedBody.ok === true', 'skipped', undefined],
      ['httpyacTests › body ok', 'skipped', undefined],
      ['httpyacTests › test.status(200)', 'skipped', undefined],
      ['brokenServer', 'failure', 'request'],
      ['nobodyListens', 'error', 'no-response'],
    ]);
    // Each request's line: a property of its suite (the schema has no line attribute).
    const properties = read.suites[0]!.properties;
    assert.equal(properties['line: jetbrainsTests'], String(lineOf('GET {{base}}/fine')));
    assert.equal(properties['line: nobodyListens'], String(lineOf('GET http://127.0.0.1:')));
    assert.match(result.stdout, /4 requests, 2 failed, .*5 tests skipped \(not run\)/);
  });

  void it('the schema check is real: the attributes the JUnit file used to carry are rejected', async () => {
    const errors = await junitSchemaErrors('<testsuites timestamp="x"><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="t" line="3" file="a.http"/></testsuite></testsuites>');
    assert.ok(errors.some((e) => /timestamp/.test(e)), errors.join('\n'));
    assert.ok(errors.some((e) => /line/.test(e)), errors.join('\n'));
  });

  void it('json: every entry has a file and a line; totals count failures, errors and skipped tests apart', async () => {
    const report = join(server.dir, 'report.json');
    const result = await run(['--reporter', 'json', '--report', report]);
    assert.equal(result.code, 1);
    const json = JSON.parse(readFileSync(report, 'utf8')) as { requests: { label: string; file: string; line: number; ok: boolean; error?: string; notRun: { tests?: string[] }[] }[]; totals: Record<string, number> };
    for (const r of json.requests) {
      assert.ok(r.file.length > 0 && r.line >= 1, `${r.label}: ${r.file}:${r.line}`);
    }
    assert.deepEqual(json.requests.map((r) => [r.label, r.line, r.ok, r.error]), [
      ['jetbrainsTests', lineOf('GET {{base}}/fine'), true, undefined],
      ['httpyacTests', lines(text).indexOf('GET {{base}}/fine', lineOf('GET {{base}}/fine')) + 1, true, undefined],
      ['brokenServer', lineOf('GET {{base}}/broken'), false, undefined],
      ['nobodyListens', lineOf('GET http://127.0.0.1:'), false, 'no-response'],
    ]);
    assert.deepEqual(json.requests[0]!.notRun[0]!.tests, ['status is 200', 'body is json']);
    assert.deepEqual(json.totals, { requests: 4, failed: 2, failures: 1, errors: 1, skipped: 5, assertions: 1, assertionsFailed: 0 });
  });

  void it('github: paths relative to GITHUB_WORKSPACE, a line >= 1 on every annotation, never file= or line=0', async () => {
    const result = await run(['--reporter', 'github'], { GITHUB_WORKSPACE: server.dir });
    const commands = lines(result.stdout).filter((l) => l.startsWith('::'));
    assert.ok(commands.length >= 4, result.stdout);
    for (const c of commands) {
      assert.match(c, /^::(error|notice) file=requests\/nested\/ci\.http,line=[1-9]\d*,/, c);
    }
    assert.ok(commands.some((c) => c.startsWith(`::error file=requests/nested/ci.http,line=${lineOf('GET http://127.0.0.1:')},`)), 'the lost connection, on its line');
    assert.match(result.stdout, /^::notice file=requests\/nested\/ci\.http,line=4,.*not run: response handler script .*\(2 tests skipped\)/m);
  });
});

void describe('an input error still writes the report', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'apiwb-ci-input-'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base: 'http://127.0.0.1:9' } }));
    writeFileSync(join(dir, 'ok.http'), 'GET {{base}}/a\n');
    writeFileSync(join(dir, 'bad.http'), '# a request with a variable no environment defines\n\nGET {{base}}/b?x={{undefinedThing}}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('an undefined variable: that request is a not-run error at its file and line, the other is sent; exit 1, valid', async () => {
    const report = join(dir, 'input.xml');
    const result = await runInProcess([join(dir, 'ok.http'), join(dir, 'bad.http'), '--env', 'local', '--reporter', 'junit', '--report', report]);
    assert.equal(result.code, 1, result.stderr);
    const xml = readFileSync(report, 'utf8');
    await assertValidJUnit(xml);
    const read = await readJUnit(xml);
    const bad = read.cases.find((c) => c.suite === shownOf(join(dir, 'bad.http')));
    const ok = read.cases.find((c) => c.suite === shownOf(join(dir, 'ok.http')));
    assert.deepEqual([bad?.outcome, bad?.type], ['error', 'not-run'], JSON.stringify(read.cases));
    assert.match(bad?.message ?? '', /undefinedThing/);
    assert.equal(read.suites.find((s) => s.name === bad?.suite)!.properties[`line: ${bad!.name}`], '3');
    assert.deepEqual([ok?.outcome, ok?.type], ['error', 'no-response'], 'the request beside it was sent (nothing listens on port 9)');
  });

  void it('an env file fault: the report names the env file and its line; github never says line=0', async () => {
    const envFile = join(dir, 'broken.env.json');
    writeFileSync(envFile, '{\n  "local": {\n    "password": "literal-secret-value"\n  }\n}\n');
    const result = await runInProcess([join(dir, 'ok.http'), '--env', 'local', '--env-file', envFile, '--reporter', 'github']);
    assert.equal(result.code, 2, result.stderr);
    const commands = lines(result.stdout).filter((l) => l.startsWith('::'));
    assert.equal(commands.length, 1, result.stdout);
    assert.match(commands[0]!, /^::error file=[^,]*broken\.env\.json,line=3,title=apiwb%3A input error::/);
    assert.ok(!result.stdout.includes('literal-secret-value'));
  });

  void it('a request that throws on its way still has its file and line (was file "", line 0)', () => {
    const plan = planRequests([join(dir, 'ok.http')], undefined);
    const item = { ...plan.requests[0]!, readLater: false };
    const outcome = thrownOutcome(item, 'ok', new Error('socket hang up'), new Redactor());
    assert.deepEqual([outcome.file, outcome.line, outcome.ok, outcome.error, outcome.problem], [shownOf(join(dir, 'ok.http')), 1, false, 'no-response', 'socket hang up']);
    const report = runReportOf([outcome], { startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1 });
    assert.match(renderReport('github', report, { cwd: process.cwd(), env: { GITHUB_WORKSPACE: dir } }), /^::error file=ok\.http,line=1,title=apiwb%3A ok::GET \{\{base\}\}\/a: socket hang up$/m);
  });

  void it('an unreadable overlay: the JSON report names the overlay, line 1', async () => {
    const overlay = join(dir, 'overlay.json');
    writeFileSync(overlay, 'not an overlay');
    const report = join(dir, 'overlay-report.json');
    const result = await runInProcess([join(dir, 'ok.http'), '--env', 'local', '--overlay', overlay, '--reporter', 'json', '--report', report]);
    assert.equal(result.code, 2, result.stderr);
    const json = JSON.parse(readFileSync(report, 'utf8')) as { requests: { file: string; line: number; error?: string }[]; totals: Record<string, number> };
    assert.deepEqual(json.requests.map((r) => [r.file, r.line, r.error]), [[shownOf(overlay), 1, 'input']]);
    assert.equal(json.totals.errors, 1);
  });

  void it('a --report that is an input of the run is not written, even on an input error', async () => {
    const target = join(dir, 'bad.http');
    const before = readFileSync(target, 'utf8');
    const result = await runInProcess([join(dir, 'ok.http'), target, '--env', 'local', '--reporter', 'junit', '--report', target]);
    assert.equal(result.code, 2);
    assert.equal(readFileSync(target, 'utf8'), before, 'the .http file is as it was');
    assert.match(result.stderr, /no report written: --report .*bad\.http is the \.http file/);
    assert.ok(existsSync(target));
  });
});
