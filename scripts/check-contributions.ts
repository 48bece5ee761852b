// Fails when package.json contributes a command that the code never registers, or the reverse.
// Three sources must agree: contributes.commands, COMMANDS (commandIds.ts) and registerCommand(COMMANDS.x) calls.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../src/extension/commandIds';
import { contributionProblems, type PackageContributions } from './contributions';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageContributions;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const problems = contributionProblems(pkg, COMMANDS, sourceFiles(join(root, 'src', 'extension')).map((f) => readFileSync(f, 'utf8')));
if (problems.length > 0) {
  console.error(`check-contributions: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-contributions: ${pkg.contributes.commands.length} commands contributed and registered`);
