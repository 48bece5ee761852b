// The contract rules the catalog encodes each have a test, and docs/contract-coverage.md is the table
// generated from them: this suite fails when a rule has no test citing it, when a test cites a rule
// that does not exist, or when the table is stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_RULES } from '../../scripts/contractRules';
import { SANDBOX_CHOICES, SANDBOX_CHOICE_IDS } from '../../src/core/catalog/rules';
import { COVERAGE_FILE, testFiles } from '../../scripts/contract-coverage';
import { contractCoverage } from '../../scripts/contractCoverage';

const root = join(import.meta.dirname, '..', '..');

void test('every catalog rule is cited by a test title, and every cited rule exists', () => {
  const coverage = contractCoverage(testFiles(root));
  assert.deepEqual(coverage.uncovered, [], 'rules without a test');
  assert.deepEqual(coverage.unknown, [], 'citations of rules the catalog does not have');
});

void test(`${COVERAGE_FILE} is the table generated from the catalog (npx tsx scripts/contract-coverage.ts)`, () => {
  const expected = contractCoverage(testFiles(root)).markdown;
  assert.equal(readFileSync(join(root, COVERAGE_FILE), 'utf8'), expected);
  for (const rule of CONTRACT_RULES) assert.ok(expected.includes(`| \`${rule.id}\` | seed ${rule.source.seed} §${rule.source.section} |`), rule.id);
});

void test('the check fails for a rule without a test (or whose test asserts nothing) and for a citation of no rule', () => {
  const [first, ...rest] = CONTRACT_RULES;
  assert.ok(first);
  const files = [
    { path: 'test/a.test.ts', text: rest.map((r) => `void it('does it (rule ${r.id})', () => { assert.equal(1, 1); });`).join('\n') },
    { path: 'test/b.test.ts', text: "void test(\"the sandbox\\'s answer (rule 000-9-no-such-rule)\", () => { assert.ok(true); });" },
    // A title naming the first rule over a test that asserts nothing covers nothing.
    { path: 'test/c.test.ts', text: `void it('names it (rule ${first.id})', () => { const unused = 1; });\nvoid it('asserts (no rule)', () => { assert.ok(true); });` },
  ];
  const coverage = contractCoverage(files);
  assert.deepEqual(coverage.uncovered, [first.id]);
  assert.deepEqual(coverage.unknown, [{ id: '000-9-no-such-rule', path: 'test/b.test.ts' }]);
  assert.match(coverage.markdown, new RegExp(`\\| \`${first.id.replace(/\./g, '\\.')}\` .* \\*\\*none\\*\\* \\|`));
});

void test('rule ids are unique, cite their own section, and name only existing sandbox choices', () => {
  const ids = CONTRACT_RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const rule of CONTRACT_RULES) {
    assert.ok(rule.id.startsWith(`${rule.source.seed}-`), rule.id);
    if (rule.sandbox.kind === 'choice') assert.ok(SANDBOX_CHOICES[rule.sandbox.choice], rule.id);
  }
  const cited = new Set(CONTRACT_RULES.flatMap((r) => (r.sandbox.kind === 'choice' ? [r.sandbox.choice] : [])));
  assert.deepEqual(SANDBOX_CHOICE_IDS.filter((id) => !cited.has(id)), [], 'every sandbox choice answers a rule the contract leaves open');
});
