// Fails when package.json contributes a command that the code never registers, or the reverse.
// Three sources must agree: contributes.commands, COMMANDS (commandIds.ts) and registerCommand(COMMANDS.x) calls.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../src/extension/commandIds';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[]; menus?: Record<string, { command: string }[]> };
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const registered = new Set<string>();
for (const file of sourceFiles(join(root, 'src', 'extension'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(/registerCommand\(\s*COMMANDS\.(\w+)/g)) {
    const id = (COMMANDS as Record<string, string>)[m[1] ?? ''];
    if (id) registered.add(id);
  }
}
const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
const declared = new Set(Object.values(COMMANDS));
const problems: string[] = [];
for (const id of contributed) if (!registered.has(id)) problems.push(`contributed in package.json but never registered: ${id}`);
for (const id of registered) if (!contributed.has(id)) problems.push(`registered in code but not contributed in package.json: ${id}`);
for (const id of declared) if (!registered.has(id)) problems.push(`declared in COMMANDS but never registered: ${id}`);
for (const [where, items] of Object.entries(pkg.contributes.menus ?? {})) {
  for (const item of items) if (!contributed.has(item.command)) problems.push(`menu ${where} names an uncontributed command: ${item.command}`);
}
if (problems.length > 0) {
  console.error(`check-contributions: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-contributions: ${contributed.size} commands contributed and registered`);
