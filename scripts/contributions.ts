// Whether package.json's contributed commands, the COMMANDS ids and the registerCommand calls agree.
// Pure: scripts/check-contributions.ts feeds it the real files; test/unit/contributions.test.ts feeds it
// mismatches to show it fails.
export interface PackageContributions {
  readonly contributes: { readonly commands: readonly { readonly command: string }[]; readonly menus?: Readonly<Record<string, readonly { readonly command: string }[]>> };
}

export function contributionProblems(pkg: PackageContributions, commands: Readonly<Record<string, string>>, sources: readonly string[]): string[] {
  const registered = new Set<string>();
  for (const source of sources) {
    for (const m of source.matchAll(/registerCommand\(\s*COMMANDS\.(\w+)/g)) {
      const id = commands[m[1] ?? ''];
      if (id) registered.add(id);
    }
  }
  const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
  const problems: string[] = [];
  for (const id of contributed) if (!registered.has(id)) problems.push(`contributed in package.json but never registered: ${id}`);
  for (const id of registered) if (!contributed.has(id)) problems.push(`registered in code but not contributed in package.json: ${id}`);
  for (const id of Object.values(commands)) if (!registered.has(id)) problems.push(`declared in COMMANDS but never registered: ${id}`);
  for (const [where, items] of Object.entries(pkg.contributes.menus ?? {})) {
    for (const item of items) if (!contributed.has(item.command)) problems.push(`menu ${where} names an uncontributed command: ${item.command}`);
  }
  return problems;
}
