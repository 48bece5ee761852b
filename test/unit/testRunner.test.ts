// The test runner's own rules: the summary line counts skips, and no test in the repository can skip
// (a missing dependency fails the test with what to install instead).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { countLine, type TestCounts } from '../../scripts/testCounts.mjs';

const ROOT = join(import.meta.dirname, '../..');
const countAll = (lines: string[]): TestCounts => {
  const into = { passed: 0, failed: 0, skipped: 0 };
  for (const line of lines) countLine(line, into);
  return into;
};

void test('node and editor summary lines add up, skips included', () => {
  assert.deepEqual(countAll([
    'ℹ pass 10', 'ℹ fail 1', 'ℹ skipped 2', 'ℹ todo 1',
    '\x1b[34mℹ pass 5\x1b[39m',
    'editor: 4 passed, 0 failed, 1 skipped',
    'ui: 3 passed, 2 failed, 0 skipped',
    'secrets: 1 passed, 0 failed',
    'some test output: 9 passed, 9 failed and more',
  ]), { passed: 23, failed: 3, skipped: 4 });
});

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : files(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

void test('no test skips: node skip/todo options, t.skip(), mocha it.skip / this.skip()', () => {
  const skipping = /\{\s*skip\s*[:,}]|\{\s*todo\s*[:,}]|\bt\.(skip|todo)\(|\b(it|describe|test)\.(skip|todo)\(|\bthis\.skip\(/;
  const found = files(join(ROOT, 'test'))
    .filter((file) => file !== import.meta.filename)
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').map((line, i) => ({ file, line, n: i + 1 })))
    .filter(({ line }) => skipping.test(line))
    .map(({ file, n, line }) => `${relative(ROOT, file)}:${n}: ${line.trim()}`);
  assert.deepEqual(found, []);
});
