// `{{` completion: the environment's variable names (context.ts environmentVariablesOf: the client's, or
// while it sends none those the server read from the env files), file variables, named responses and the
// dynamic variables. Names only: the language server never sees a value of the environment.
import type { CompletionItem, Position } from 'vscode-languageserver';
import type { HttpDocument } from './document';
import { environmentVariablesOf, environmentVariableWords, type ServiceContext } from './context';
import { CompletionItemKind, InsertTextFormat } from './lspConstants';
import { DYNAMIC_VARIABLES, dynamicVariableWords } from '../../core/run/dynamicVariables';

// The dynamic variables that work, with their words, from the one table (src/core/run/dynamicVariables.ts).
const DYNAMIC: ReadonlyArray<[string, string, string]> = [
  ['$auth.token', '$auth.token("${1:engagement}")', 'the access token of an auth entry of the env file (Security.Auth), from the credential store'],
  ...DYNAMIC_VARIABLES.filter((v) => v.parse).map((v): [string, string, string] => [v.name, v.snippet, dynamicVariableWords(v)]),
];

export function variableCompletions(
  document: HttpDocument,
  position: Position,
  open: { readonly start: number; readonly partial: string },
  context: ServiceContext,
): CompletionItem[] {
  const line = document.lineText(position.line);
  const closed = line.slice(position.character).trimStart().startsWith('}}');
  // Replace the partial name and, when `}}` already follows, whatever name text sits before it.
  let end = position.character;
  if (closed) while (end < line.length && line[end] !== '}') end++;
  const range = { start: { line: position.line, character: open.start }, end: { line: position.line, character: end } };
  const close = closed ? '' : '}}';
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (name: string, detail: string, kind: CompletionItem['kind'], snippet?: string, documentation?: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    items.push({
      label: name,
      kind,
      detail,
      documentation,
      ...(snippet ? { insertTextFormat: InsertTextFormat.Snippet } : {}),
      textEdit: { range, newText: (snippet ?? name) + close },
    });
  };
  for (const name of document.fileVariableNames) add(name, 'file variable', CompletionItemKind.Variable);
  for (const variable of environmentVariablesOf(context)) add(variable.name, environmentVariableWords(variable), CompletionItemKind.Variable);
  for (const name of document.requestNames()) {
    add(`${name}.response.body.$.`, `a value of the response of '${name}' (JSONPath)`, CompletionItemKind.Reference, `${name}.response.body.\\$.\${1}`);
    add(`${name}.response.headers.`, `a header of the response of '${name}'`, CompletionItemKind.Reference, `${name}.response.headers.\${1}`);
  }
  for (const [label, snippet, doc] of DYNAMIC) add(label, 'dynamic variable', CompletionItemKind.Snippet, snippet.replace(/^\$/, '\\$'), doc);
  return items;
}
