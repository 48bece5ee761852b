// Test helper: a JUnit report checked the way CI systems read it — validated against the JUnit schema the
// Jenkins xUnit plugin uses (test/fixtures/junit/junit-10.xsd, with libxml2's xmllint built to WebAssembly)
// and read back by a JUnit consumer (junit2json), whose counts the caller asserts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { validateXML } from 'xmllint-wasm';

const XSD = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'junit', 'junit-10.xsd'), 'utf8');

/** The schema's verdict: valid, or libxml2's messages. */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: XSD }] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

export async function assertValidJUnit(xml: string): Promise<void> {
  assert.deepEqual(await junitSchemaErrors(xml), [], 'valid against junit-10.xsd');
}

/** One testcase as a JUnit consumer reads it. */
export interface ReadCase {
  readonly suite: string;
  readonly name: string;
  readonly outcome: 'passed' | 'failure' | 'error' | 'skipped';
  readonly type?: string;
  readonly message?: string;
}

/** The report as junit2json reads it: the root's counts, each suite's counts and properties, every testcase. */
export async function readJUnit(xml: string): Promise<{ totals: { tests: number; failures: number; errors: number }; suites: { name: string; tests: number; failures: number; errors: number; skipped: number; properties: Record<string, string> }[]; cases: ReadCase[] }> {
  const root = await parse(xml) as unknown as {
    tests: number; failures: number; errors: number;
    testsuite?: { name: string; tests: number; failures: number; errors: number; skipped?: number; properties?: { name: string; value: unknown }[];
      testcase?: { name: string; failure?: { type?: string; message?: string }[]; error?: { type?: string; message?: string }[]; skipped?: { message?: string }[] }[] }[];
  };
  const suites = (root.testsuite ?? []).map((s) => ({
    name: s.name, tests: s.tests, failures: s.failures, errors: s.errors, skipped: s.skipped ?? 0,
    properties: Object.fromEntries((s.properties ?? []).map((p) => [p.name, String(p.value)])),
  }));
  const cases = (root.testsuite ?? []).flatMap((s) => (s.testcase ?? []).map((c): ReadCase => {
    const [outcome, detail] = c.failure ? ['failure', c.failure[0]] as const : c.error ? ['error', c.error[0]] as const : c.skipped ? ['skipped', c.skipped[0]] as const : ['passed', undefined] as const;
    return {
      suite: s.name, name: c.name, outcome,
      ...(detail && 'type' in detail && detail.type ? { type: detail.type } : {}),
      ...(detail?.message ? { message: detail.message } : {}),
    };
  }));
  return { totals: { tests: root.tests, failures: root.failures, errors: root.errors }, suites, cases };
}
