// Writes docs/contract-coverage.md from the catalog's rules and the test titles that cite them.
// `--check` writes nothing: it exits 1 when the file is stale, a rule has no test, or a test cites
// a rule the catalog does not have.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { contractCoverage, type TestFile } from './contractCoverage';

export const COVERAGE_FILE = join('docs', 'contract-coverage.md');

export function testFiles(root: string): TestFile[] {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(join(dir, e.name))) : /\.(test\.ts|ui\.mjs)$/.test(e.name) ? [join(dir, e.name)] : []);
  return walk(join(root, 'test')).sort().map((file) => ({ path: relative(root, file).split(sep).join('/'), text: readFileSync(file, 'utf8') }));
}

function main(): number {
  const root = process.cwd();
  const coverage = contractCoverage(testFiles(root));
  const problems = [
    ...coverage.uncovered.map((id) => `rule ${id} has no test (cite it in a test title: "rule ${id}")`),
    ...coverage.unknown.map((u) => `${u.path} cites rule ${u.id}, which the catalog does not have`),
  ];
  const target = join(root, COVERAGE_FILE);
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = '';
    }
    if (current !== coverage.markdown) problems.push(`${COVERAGE_FILE} is stale: run npx tsx scripts/contract-coverage.ts`);
  } else {
    writeFileSync(target, coverage.markdown);
    process.stdout.write(`wrote ${COVERAGE_FILE}\n`);
  }
  for (const problem of problems) process.stderr.write(`contract-coverage: ${problem}\n`);
  return problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && /contract-coverage\.ts$/.test(process.argv[1])) process.exitCode = main();
