// JUnit XML as the Jenkins xUnit plugin's schema (junit-10.xsd, the Surefire format) has it, and nothing
// more: a testsuite per file, a testcase per request (and per request not run or input error), a testcase
// per test of another tool's script, `<skipped>` (not run here). A response that did not meet what was
// expected is a `<failure>`; no response, an input fault or a request not run is an `<error>`. Facts the
// schema has no attribute for (each testcase's line, the tool's version) are `<properties>` of the suite.
import { failureLines, skippedTests, totalsOf, type ReportedRequest, type RunReport } from './report';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** XML 1.0 text: escaped, and characters XML cannot carry (most C0 controls, lone surrogates) dropped. */
function xml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

const seconds = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(3);

/** The testcase name of a test not run: the request's label, then the test's own name. */
const skippedTestName = (label: string, test: string): string => `${label} › ${test}`;

export function junitReport(report: RunReport): string {
  const totals = totalsOf(report);
  const files = [...new Set(report.requests.map((r) => r.file))];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="apiwb run" tests="${totals.requests + totals.skipped}" failures="${totals.failures}" errors="${totals.errors}" time="${seconds(report.durationMs)}">`);
  for (const file of files) out.push(...suite(report, file));
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function suite(report: RunReport, file: string): string[] {
  const requests = report.requests.filter((r) => r.file === file);
  const totals = totalsOf({ ...report, requests });
  const time = requests.reduce((sum, r) => sum + (r.durationMs ?? 0), 0);
  const out = [`  <testsuite name="${xml(file)}" tests="${totals.requests + totals.skipped}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(time)}" timestamp="${xml(report.startedAt)}" file="${xml(file)}">`];
  out.push('    <properties>');
  out.push(`      <property name="apiwb.version" value="${xml(report.version)}"/>`);
  for (const r of requests) out.push(`      <property name="line: ${xml(r.label)}" value="${r.line}"/>`);
  out.push('    </properties>');
  for (const r of requests) out.push(...testcase(r), ...skipped(r));
  out.push('  </testsuite>');
  return out;
}

function testcase(r: ReportedRequest): string[] {
  const passed = r.assertions.filter((a) => a.outcome === 'passed').map((a) => `${r.file}:${a.line}: ?? ${a.text} — passed (actual ${a.actual})`);
  const notRun = r.notRun.map((n) => `${r.file}:${n.line}: not run: ${n.what}`);
  const request = r.method ? `${r.method} ${r.url}${r.status === undefined ? '' : ` → ${r.status}`}` : r.error === 'input' ? 'input error' : '';
  const log = [`${r.file}:${r.line}: ${request}`, ...passed, ...notRun];
  const out = [`    <testcase classname="${xml(r.file)}" name="${xml(r.label)}" time="${seconds(r.durationMs)}">`];
  if (!r.ok) {
    const reasons = failureLines(r);
    const message = reasons[0] ?? 'failed';
    const element = r.error === undefined ? 'failure' : 'error';
    const type = r.error ?? (r.assertions.some((a) => a.outcome === 'failed') ? 'assertion' : 'request');
    out.push(`      <${element} message="${xml(message)}" type="${type}">${xml(reasons.join('\n'))}</${element}>`);
  }
  out.push(`      <system-out>${xml(log.join('\n'))}</system-out>`);
  out.push('    </testcase>');
  return out;
}

/** A testcase per test of another tool's script in the request's block: skipped, saying where and why. */
function skipped(r: ReportedRequest): string[] {
  return skippedTests(r).flatMap(({ name, notRun }) => [
    `    <testcase classname="${xml(r.file)}" name="${xml(skippedTestName(r.label, name))}" time="0.000">`,
    `      <skipped message="${xml(`not run: ${notRun.what}`)}">${xml(`${r.file}:${notRun.line}: ${name}`)}</skipped>`,
    '    </testcase>',
  ]);
}
