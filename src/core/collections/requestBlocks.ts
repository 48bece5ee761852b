// Text edits on .http files for collections: take one request's block out, put it into another file,
// rename it, remove it. Pure functions over the text; every other line stays byte for byte.
import { parseHttpFile, type HttpFile, type Range, type RequestBlock } from '../httpfile';
import { REDACTED, type Redactor } from '../secrets/redact';
import { headerHasLiteral, literalCredentials, queryPairIsLiteral, scrubBody } from '../secrets/literalCredentials';
import { isLiteralSecret, JWT_ANYWHERE, withoutReferences } from '../secrets/vocabulary';

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

/**
 * Why a request must not go into a collection (collections are committed to git), or undefined when
 * clean. Refused: a credential header whose value has any literal part beside its auth scheme and its
 * {{references}} (so `Basic dXNl… {{x}}` is refused, `Basic {{user}}:{{key}}` is not); a password in the
 * URL, a secret-named query parameter or body field (JSON, form, multipart) with a literal value, by the
 * one rule of a request's literal credentials (src/core/secrets/literalCredentials.ts); a JWT anywhere;
 * a known secret value anywhere. Header and field names are the secret vocabulary's (src/core/secrets),
 * shared with the redactor and the env-file check, so they never disagree.
 */
export function secretProblem(blockText: string, knownSecrets: readonly string[] = []): string | undefined {
  const request = parseHttpFile(blockText).requests[0];
  for (const header of request?.headers ?? []) {
    if (headerHasLiteral(header.name, header.value)) {
      return `its ${header.name} header holds a literal credential: write it as a reference such as {{$auth.token("engagement")}} or {{tenant_code}} before saving it to a collection`;
    }
  }
  // The URL's password, the query and the body: the one rule of a request's literal credentials.
  const found = request && literalCredentials({
    url: request.requestLine.url + request.queryContinuations.map((q) => q.text.trim()).join(''),
    headers: request.headers.filter((h) => h.name.trim().toLowerCase() === 'content-type'),
    ...(request.body?.kind === 'inline' ? { body: request.body.text } : {}),
  })[0];
  if (found?.place === 'userinfo') return 'its URL holds a literal password (user:password@host): write it as a {{variable}} before saving it to a collection';
  if (found) return `its ${found.what} holds a literal secret: write it as a {{variable}} before saving it to a collection`;
  if (JWT_ANYWHERE.test(withoutReferences(blockText, ' '))) {
    return 'it contains a literal JWT (a token): replace it with a reference such as {{$auth.token("fundraising")}} before saving it to a collection';
  }
  if (knownSecrets.some((secret) => secret.length >= 4 && blockText.includes(secret))) {
    return 'it contains a secret value kept in the credential store: replace it with a {{variable}} before saving it to a collection';
  }
  return undefined;
}

/**
 * Request blocks as written (variables unexpanded) with every literal secret secretProblem would refuse
 * masked in place, line for line, so the text may be stored (the history): credential headers (their
 * auth scheme kept) and body fields (JSON at any depth, form, multipart parts, other text) by the one rule
 * of literal credentials (literalCredentials.ts), secret-named file variables and query parameters, then
 * the Redactor's text pass (known values, Bearer/Basic values, URL passwords). `{{references}}` stay.
 */
export function redactRequestBlocks(text: string, redactor: Redactor): string {
  const file = parseHttpFile(text);
  const edits: Array<{ range: Range; text: string }> = [];
  const mask = (range: Range, replacement: string = REDACTED): void => void edits.push({ range, text: replacement });
  for (const block of file.blocks) {
    for (const variable of block.variables) if (isLiteralSecret(variable.name, variable.value)) mask(variable.valueRange);
    const request = block.request;
    if (!request) continue;
    for (const param of request.queryParameters) if (queryPairIsLiteral(param.name, param.value)) mask(param.valueRange);
    for (const header of request.headers) {
      if (headerHasLiteral(header.name, header.value)) mask(header.valueRange, redactor.headerValue(header.name, header.value));
    }
    if (request.body?.kind === 'inline') {
      // The body's fields by the one rule of literal credentials (JSON at any depth, form, multipart parts, text), masked.
      const body = request.body.text;
      const contentType = request.headers.find((h) => h.name.trim().toLowerCase() === 'content-type')?.value ?? '';
      const masked = scrubBody(body, contentType, () => undefined, () => REDACTED);
      if (masked !== body) mask(request.body.range, masked);
    }
  }
  // Right to left, bottom to top: an edit never moves the ranges of the ones still to come.
  const lines = text.split('\n');
  for (const { range, text: replacement } of edits.sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)) {
    const head = (lines[range.start.line] ?? '').slice(0, range.start.character);
    const tail = (lines[range.end.line] ?? '').slice(range.end.character);
    lines.splice(range.start.line, range.end.line - range.start.line + 1, ...`${head}${replacement}${tail}`.split('\n'));
  }
  return redactor.text(lines.join('\n'));
}

