// Hover: the request line's operation, query parameters, JSON body keys and enum values, variables.
import { getLocation } from 'jsonc-parser';
import type { Hover, Position } from 'vscode-languageserver';
import { containsPosition, isSystemVariable, type HttpRequestNode } from '../../core/httpfile';
import type { JSONSchema } from '../../core/catalog/jsonSchema';
import type { HttpDocument } from './document';
import { documentOffset, environmentVariablesOf, zoneAt, type ServiceContext } from './context';
import { analyseJsonBody } from './jsonBody';
import { operationMarkdown, queryParameterMarkdown } from './operationText';
import { contractNotes, contractNotesMarkdown } from './contractNotes';
import { HEADERS } from './headers';
import { fieldInfo, fieldMarkdown, propertiesOf, schemaAt } from './schemaInfo';
import { assertionHover } from './assertionService';
import { DYNAMIC_SHAPES, dynamicVariableNamed, dynamicVariableWords } from '../../core/run/dynamicVariables';

export function doHover(document: HttpDocument, position: Position, context: ServiceContext): Hover | null {
  const assertion = assertionHover(document.blockAt(position.line)?.request, position);
  if (assertion) return assertion;
  const zone = zoneAt(document, position);
  if (zone.kind === 'preamble') return null;
  const request = zone.request;
  const markdown = (value: string): Hover => ({ contents: { kind: 'markdown', value } });
  const variable = request.references.find((r) => containsPosition(r.range, position));
  if (variable) return markdown(variableMarkdown(document, variable.name, context));
  const known = context.operations.match(request.requestLine.method, request.requestLine.url);
  const parameter = request.queryParameters.find((q) => containsPosition(q.range, position));
  if (parameter) {
    const documented = known?.operation.query?.find((q) => q.name === parameter.name);
    return documented ? markdown(queryParameterMarkdown(documented)) : null;
  }
  if (zone.kind === 'request-line') {
    const notes = contractNotesMarkdown(contractNotes(request, context));
    if (known) return markdown([operationMarkdown(known.operation), notes].filter(Boolean).join('\n\n'));
    const family = context.operations.deprecatedFamily(request.requestLine.url);
    if (family?.deprecated) return markdown(`**${family.name}** operations are deprecated: use ${family.deprecated.replacement}.`);
    return notes ? markdown(notes) : null;
  }
  if (zone.kind === 'header') {
    const header = request.headers.find((h) => containsPosition(h.nameRange, position));
    const documented = header && HEADERS.find(([name]) => name.toLowerCase() === header.name.toLowerCase());
    if (documented) return markdown(`**${documented[0]}**: ${documented[1]}`);
    return null;
  }
  if (zone.kind === 'body' && known?.requestSchema) return bodyHover(document, request, position, known.requestSchema);
  return null;
}

function bodyHover(document: HttpDocument, request: HttpRequestNode, position: Position, root: JSONSchema): Hover | null {
  const body = request.body;
  if (body?.kind !== 'inline') return null;
  const json = analyseJsonBody(body.text, body.offset);
  const offset = documentOffset(document, position) - body.offset;
  // Measured before it is walked (getLocation recurses once per level): past MAX_JSON_DEPTH, no hover.
  if (offset < 0 || offset > json.text.length || json.tooDeep) return null;
  const location = getLocation(json.text, offset);
  const node = location.previousNode;
  if (!node || location.path.length === 0) return null;
  const schema = schemaAt(root, location.path);
  if (!schema) return null;
  const name = String([...location.path].reverse().find((s) => typeof s === 'string') ?? '');
  const last = location.path.at(-1);
  const parent = schemaAt(root, location.path.slice(0, -1));
  if (typeof last === 'string' && parent && !propertiesOf(root, parent).some(([key]) => key === last)) {
    return { contents: { kind: 'markdown', value: `\`${last}\` is not a field the contract documents for this request.` } };
  }
  const info = fieldInfo(root, schema, name);
  let text = fieldMarkdown(info);
  if (!location.isAtPropertyKey && typeof node.value === 'number' && info.enumMeanings?.[String(node.value)]) {
    text = `\`${node.value} — ${info.enumMeanings[String(node.value)]}\`\n\n${text}`;
  }
  return { contents: { kind: 'markdown', value: text } };
}

function variableMarkdown(document: HttpDocument, name: string, context: ServiceContext): string {
  if (isSystemVariable(name)) return dynamicVariableMarkdown(name);
  const chained = /^([\w-]+)\.response\./.exec(name);
  if (chained) return `A value of the response of the request named \`${chained[1]}\`, read when this request is sent.`;
  const fileVariable = document.fileVariable(name);
  if (fileVariable) return `File variable \`${name}\` = \`${fileVariable.value}\``;
  const environment = environmentVariablesOf(context).find((v) => v.name === name);
  if (environment) return `${environment.private ? 'Private environment' : 'Environment'} variable \`${name}\` ${environment.where}.`;
  return `\`${name}\` is not defined in the active environment or the file.`;
}

/** What a `{{$…}}` gives, from the one table (src/core/run/dynamicVariables.ts), and what is wrong with this use of it. */
function dynamicVariableMarkdown(name: string): string {
  const head = /^\$[\w.-]+/.exec(name)?.[0] ?? name;
  if (head.startsWith('$auth.')) return `\`{{${name}}}\`: a credential of an auth entry of the env file, from the credential store, when the request is sent.`;
  const entry = dynamicVariableNamed(head);
  const answer = DYNAMIC_SHAPES.resolve(head, name.slice(head.length).trim());
  const wrong = typeof answer === 'object' && 'problem' in answer ? `\n\n**Not resolved as written**: ${answer.problem}.` : '';
  return entry ? `${dynamicVariableWords(entry)}${entry.parse ? wrong : ''}` : `\`${head}\` is not a dynamic variable this product knows: the request is not sent while it is there.`;
}
