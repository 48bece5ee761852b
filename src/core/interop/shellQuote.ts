// POSIX shell quoting (sh, bash, zsh): single quotes keep every byte literal — newlines, `$`, `!`,
// backslashes, unicode — except the single quote itself, written as '\''. Shell variables are spliced
// in double quotes between single-quoted parts: 'Bearer '"${TOKEN}".
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(text: string): string {
  if (text !== '' && SAFE.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A word made of literal text and shell variable references, quoted as one argument. */
export type ShellPart = { readonly literal: string } | { readonly variable: string };

export function shellWord(parts: readonly ShellPart[]): string {
  const merged: ShellPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if ('literal' in part && last && 'literal' in last) merged[merged.length - 1] = { literal: last.literal + part.literal };
    else if (!('literal' in part && part.literal === '')) merged.push(part);
  }
  if (merged.length === 0) return "''";
  return merged.map((part) => ('literal' in part ? shellQuote(part.literal) : `"\${${part.variable}}"`)).join('');
}

/** `{{name}}` → an environment variable name a shell accepts: fundraising_base_url, APIWB_RANDOM_UUID (an $auth reference takes the CLI's name instead: curl.ts). */
export function shellVariableName(reference: string): string {
  const trimmed = reference.trim();
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) return trimmed;
  const words = trimmed.replace(/^\$/, '').split(/[^A-Za-z0-9]+/).filter(Boolean).join('_').toUpperCase();
  const name = `APIWB_${words || 'VALUE'}`;
  return name;
}
