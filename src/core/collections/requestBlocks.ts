// Text edits on .http files for collections: take one request's block out, put it into another file,
// rename it, remove it. Pure functions over the text; every other line stays byte for byte.
import { parseHttpFile, type HttpFile, type RequestBlock } from '../httpfile';

function blockOf(file: HttpFile, requestIndex: number): RequestBlock {
  const block = file.blocks.find((b) => b.request?.index === requestIndex);
  if (!block) throw new Error(`there is no request #${requestIndex + 1} in this file`);
  return block;
}

function lineTexts(text: string): string[] {
  return text.split(/\r?\n/);
}

/** The request's block as a `###`-led snippet ending in one newline, ready to append to another file. */
export function requestBlockText(text: string, requestIndex: number): string {
  const file = parseHttpFile(text);
  const block = blockOf(file, requestIndex);
  const lines = lineTexts(text).slice(block.firstLine, block.lastLine + 1);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  if (!block.separator) {
    const title = block.request?.name ?? '';
    lines.unshift(title ? `### ${title}` : '###');
  }
  return `${lines.join('\n')}\n`;
}

/** The file with `block` appended after one blank line. */
export function appendRequestBlock(text: string, block: string): string {
  if (text.trim() === '') return block;
  const base = text.replace(/\s*$/, '');
  return `${base}\n\n${block}`;
}

/** The file without the request's block. */
export function removeRequestBlock(text: string, requestIndex: number): string {
  const file = parseHttpFile(text);
  const block = blockOf(file, requestIndex);
  const lines = lineTexts(text);
  lines.splice(block.firstLine, block.lastLine - block.firstLine + 1);
  return lines.join('\n');
}

/** Sets the request's `# @name`: replaces the directive's value, or adds the directive above the request line. */
export function renameRequest(text: string, requestIndex: number, newName: string): string {
  if (!/^[\w.-]+$/.test(newName)) throw new Error(`'${newName}' is not a request name: use letters, digits, '.', '_' or '-'`);
  const file = parseHttpFile(text);
  const block = blockOf(file, requestIndex);
  const lines = lineTexts(text);
  const directive = block.directives.find((d) => d.key === 'name');
  if (directive) {
    const line = directive.range.start.line;
    const current = lines[line] ?? '';
    lines[line] = current.slice(0, directive.valueRange.start.character) + newName + current.slice(directive.valueRange.end.character);
  } else {
    const at = block.request?.requestLine.range.start.line ?? block.firstLine;
    lines.splice(at, 0, `# @name ${newName}`);
  }
  return lines.join('\n');
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization', 'cookie']);

/**
 * Why a request must not go into a collection (collections are committed to git): a credential header
 * with a literal value instead of a {{variable}}, or a known secret value anywhere. Undefined when clean.
 */
export function secretProblem(blockText: string, knownSecrets: readonly string[] = []): string | undefined {
  const request = parseHttpFile(blockText).requests[0];
  for (const header of request?.headers ?? []) {
    if (CREDENTIAL_HEADERS.has(header.name.toLowerCase()) && !/\{\{[^}]+\}\}/.test(header.value)) {
      return `its ${header.name} header holds a literal credential: write it as a reference such as {{$auth.token("engagement")}} or {{tenant_code}} before saving it to a collection`;
    }
  }
  if (knownSecrets.some((secret) => secret.length >= 4 && blockText.includes(secret))) {
    return 'it contains a secret value kept in the credential store: replace it with a {{variable}} before saving it to a collection';
  }
  return undefined;
}
