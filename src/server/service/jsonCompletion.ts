// JSON body completion against the matched operation's request schema: keys not yet present (with type
// and meaning), enum values with their meaning (`0 — OneToFive`), booleans, null, nested objects and
// array items (ChoiceItem keys inside Choices).
import { createScanner, findNodeAtLocation, getLocation, type Location, type Node, type SyntaxKind } from 'jsonc-parser';
import type { CompletionItem, Position } from 'vscode-languageserver';
import type { HttpRequestNode } from '../../core/httpfile';
import type { JSONSchema } from '../../core/catalog/jsonSchema';
import { bodySkeleton } from '../../core/catalog/bodySkeleton';
import type { HttpDocument } from './document';
import { documentOffset, type ServiceContext } from './context';
import { analyseJsonBody } from './jsonBody';
import { CompletionItemKind, InsertTextFormat } from './lspConstants';
import { enumLines, fieldInfo, fieldMarkdown, propertiesOf, schemaAt, schemaTypes, type FieldInfo } from './schemaInfo';

export function completeJsonBody(document: HttpDocument, request: HttpRequestNode, position: Position, context: ServiceContext): CompletionItem[] {
  const known = context.operations.match(request.requestLine.method, request.requestLine.url);
  const root = known?.requestSchema;
  if (!root || !known) return [];
  const body = request.body;
  const cursor = documentOffset(document, position);
  // Nothing written yet: offer the documented skeleton of the whole body.
  if (!body) return skeletonCompletion(known.operation, position);
  if (body.kind !== 'inline' || cursor < body.offset) return [];
  const json = analyseJsonBody(body.text, body.offset);
  const offset = cursor - body.offset;
  // getLocation recurses once per level: a body nested past MAX_JSON_DEPTH (measured first, by
  // analyseJsonBody) is not walked; the diagnostic says why it is not checked.
  if (offset > json.text.length || json.tooDeep) return [];
  const at: BodyCursor = { document, json, root, position, cursor, offset, bodyOffset: body.offset, location: getLocation(json.text, offset) };
  return at.location.isAtPropertyKey ? keyCompletions(at) : valueCompletionsAt(at);
}

/** The cursor in an inline JSON body of a request whose operation has a request schema. */
interface BodyCursor {
  readonly document: HttpDocument;
  readonly json: ReturnType<typeof analyseJsonBody>;
  readonly root: JSONSchema;
  readonly position: Position;
  /** The cursor's offset in the document, and in the body. */
  readonly cursor: number;
  readonly offset: number;
  readonly bodyOffset: number;
  readonly location: Location;
}

function skeletonCompletion(operation: Parameters<typeof bodySkeleton>[0], position: Position): CompletionItem[] {
  const skeleton = bodySkeleton(operation);
  if (skeleton === undefined) return [];
  return [{
    label: `{ } ${operation.name} body`,
    kind: CompletionItemKind.Snippet,
    detail: 'every documented field with a neutral value',
    textEdit: { range: { start: position, end: position }, newText: JSON.stringify(skeleton, null, 2) },
  }];
}

/** The range a completion replaces: `node` when it holds the cursor, else the word before the cursor. */
function replaced(at: BodyCursor, node: Node | undefined): { start: Position; end: Position } {
  const { document, offset, bodyOffset } = at;
  if (node && node.offset <= offset && offset <= node.offset + node.length) {
    return { start: document.positionAt(bodyOffset + node.offset), end: document.positionAt(bodyOffset + node.offset + node.length) };
  }
  const word = /[\w$.-]*$/.exec(at.json.text.slice(0, offset))?.[0].length ?? 0;
  return { start: document.positionAt(at.cursor - word), end: at.position };
}

function keyCompletions(at: BodyCursor): CompletionItem[] {
  const { json, root, offset, location } = at;
  const previous = location.previousNode;
  const objectPath = location.path.slice(0, -1);
  const objectSchema = schemaAt(root, objectPath);
  if (!objectSchema) return [];
  const objectNode = json.tree && findNodeAtLocation(json.tree, objectPath);
  const present = new Set((objectNode?.children ?? []).map((p) => p.children?.[0]).filter((k): k is Node => !!k && k !== previous).map((k) => String(k.value)));
  // The key being typed breaks the parse (`""` with no colon yet): the parser then drops the properties
  // after it, so the object's own text is read as well, and no key written there is offered again.
  if (objectNode?.type === 'object') for (const key of keysWritten(json.text, objectNode.offset, offset)) present.add(key);
  const keyNode = previous?.type === 'string' ? previous : undefined;
  const range = replaced(at, keyNode);
  // Another property follows: the inserted one needs its comma (as vscode-json-languageservice does).
  const after = json.text.slice(keyNode ? keyNode.offset + keyNode.length : offset).trimStart();
  const comma = after.startsWith('"') ? ',' : '';
  return propertiesOf(root, objectSchema)
    .filter(([name]) => !present.has(name))
    .map(([name, schema], index) => {
      const info = fieldInfo(root, schema, name);
      return {
        label: name,
        kind: CompletionItemKind.Property,
        detail: `${info.typeText}${info.nullable ? ', nullable' : ''}${info.release.length ? `, ${info.release.join(', ')}` : ''}`,
        documentation: { kind: 'markdown', value: fieldMarkdown(info) },
        sortText: `${info.sandboxRequired ? 'a' : 'b'}${String(index).padStart(3, '0')}`,
        filterText: `"${name}"`,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: { range, newText: `"${name}": ${valueSnippet(info)}${comma}` },
      };
    });
}

function valueCompletionsAt(at: BodyCursor): CompletionItem[] {
  const { root, offset, location } = at;
  const previous = location.previousNode;
  const valueSchema = schemaAt(root, location.path);
  if (!valueSchema) return [];
  const info = fieldInfo(root, valueSchema, String([...location.path].reverse().find((s) => typeof s === 'string') ?? ''));
  const range = replaced(at, previous && previous.type !== 'property' && previous.type !== 'object' && previous.type !== 'array' ? previous : undefined);
  const insideString = previous?.type === 'string' && previous.offset < offset && offset < previous.offset + previous.length;
  return valueCompletions(info, root, location.path)
    .filter((item) => !(insideString && item.label === '""'))
    .map((item) => ({ ...item, textEdit: { range, newText: item.insertText ?? item.label }, insertText: undefined }));
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values, as published.
const TOKEN = {
  openBrace: 1 as SyntaxKind.OpenBraceToken, closeBrace: 2 as SyntaxKind.CloseBraceToken,
  openBracket: 3 as SyntaxKind.OpenBracketToken, closeBracket: 4 as SyntaxKind.CloseBracketToken,
  colon: 6 as SyntaxKind.ColonToken, string: 10 as SyntaxKind.StringLiteral, eof: 17 as SyntaxKind.EOF,
} as const;

/**
 * Keys written directly in the object starting at `start` (a `{`), read token by token so that a broken
 * property does not hide the ones after it: every string followed by a colon at the object's own depth,
 * except the one holding the cursor.
 */
function keysWritten(text: string, start: number, cursor: number): string[] {
  const scanner = createScanner(text, true);
  scanner.setPosition(start);
  const keys: string[] = [];
  let depth = 0;
  let pending: string | undefined;
  for (let token: SyntaxKind = scanner.scan(); token !== TOKEN.eof; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) depth += 1;
    else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) {
      depth -= 1;
      if (depth === 0) break;
    } else if (depth === 1 && token === TOKEN.colon && pending !== undefined) keys.push(pending);
    if (depth === 1 && token === TOKEN.string) {
      const from = scanner.getTokenOffset();
      const holdsCursor = from < cursor && cursor <= from + scanner.getTokenLength();
      pending = holdsCursor ? undefined : scanner.getTokenValue();
    } else if (token !== TOKEN.colon) pending = undefined;
  }
  return keys;
}

function valueSnippet(info: FieldInfo): string {
  const types = schemaTypes(info.schema);
  if (info.enumMeanings && !types.includes('array')) return '${1:0}';
  if (types.includes('string')) return '"$1"';
  if (types.includes('integer') || types.includes('number')) return '${1:0}';
  if (types.includes('boolean')) return '${1|true,false|}';
  if (types.includes('array')) return '[$1]';
  if (types.includes('object')) return '{$1}';
  return '$1';
}

function valueCompletions(info: FieldInfo, root: JSONSchema, path: ReadonlyArray<string | number>): CompletionItem[] {
  const items: CompletionItem[] = [];
  const types = schemaTypes(info.schema);
  for (const line of enumLines(info.enumMeanings)) {
    const value = line.split(' — ')[0] ?? '';
    // A short detail (the row and the pane's header do not wrap); the long text goes to the documentation, which wraps.
    items.push({ label: line, kind: CompletionItemKind.EnumMember, filterText: value, insertText: value, detail: `${info.name} = ${value}`, documentation: { kind: 'markdown', value: fieldMarkdown(info) } });
  }
  if (types.includes('boolean')) items.push({ label: 'true', kind: CompletionItemKind.Value }, { label: 'false', kind: CompletionItemKind.Value });
  if (types.includes('object')) {
    const keys = propertiesOf(root, schemaAt(root, path) ?? {}).map(([k]) => k);
    items.push({ label: '{ }', kind: CompletionItemKind.Value, detail: 'object', ...(keys.length ? { documentation: `Keys: ${keys.join(', ')}` } : {}), insertText: '{}' });
  }
  if (types.includes('array')) items.push({ label: '[ ]', kind: CompletionItemKind.Value, detail: info.typeText, insertText: '[]' });
  if (types.includes('string') && !info.enumMeanings) items.push({ label: '""', kind: CompletionItemKind.Value, detail: info.typeText, insertText: '""' });
  if (info.nullable) items.push({ label: 'null', kind: CompletionItemKind.Value });
  return items;
}
