// .http files → one Postman collection v2.1, with no secret in it. Each file is a folder named after it
// (or the collection root, folder: null); `# @folder A/B` nests a request deeper. Variables stay
// `{{var}}` (file variables and the given environment become collection variables, secret-named ones
// with an empty value). A literal Authorization / X-API-Key / Cookie value becomes a `{{variable}}`
// reference (added empty to the collection variables) and is reported. `Basic {{u}}:{{p}}` becomes a
// Postman basic auth block. `# @name`, other directives and comments travel in the item's `x-apiwb`
// extension so importing the export gives the same .http requests back.
import { keptConstructName, parseHttpFile, type HttpRequestNode, type RequestBlock } from '../../httpfile';
import { REDACTED } from '../../secrets/redact';
import { isFormBody, isLiteralSecret } from '../../secrets/vocabulary';
import { decodeFormValue } from '../../text/decode';
import { scrubRequestCredentials, variableHeaderReference } from '../../secrets/literalCredentials';
import { POSTMAN_SCHEMA_V21, type DroppedSecret, type PostmanCollection, type PostmanItem, type PostmanKeyValue, type PostmanRequest } from './model';
import { postmanSettings } from './settings';
import { structuredUrl } from './urls';

export interface HttpFileInput {
  /** Used for messages and, without `folder`, as the folder name (file name without `.http`). */
  readonly path: string;
  readonly text: string;
  /** The folder these requests go to; null puts them at the collection root. Default: from `path`. */
  readonly folder?: string | null;
}

export interface PostmanExportOptions {
  readonly name: string;
  /** Environment variables to carry as collection variables (secret-named ones are exported empty). */
  readonly environment?: Readonly<Record<string, string>>;
  /** Secret values known to the caller; any that still appears is replaced by *** and reported. */
  readonly knownSecrets?: Iterable<string>;
}

export interface PostmanExport {
  readonly collection: PostmanCollection;
  /** The collection as pretty JSON, ready to write. */
  readonly text: string;
  readonly dropped: readonly DroppedSecret[];
  readonly warnings: readonly string[];
}

const DISABLED_HEADER = /^disabled:\s*([^:\s][^:]*):\s?(.*)$/;
const DISABLED_QUERY = /^disabled query:\s*([^=]+)=(.*)$/;

interface Context {
  readonly dropped: DroppedSecret[];
  readonly warnings: string[];
  readonly variables: Map<string, string>;
}

export function exportPostmanCollection(files: readonly HttpFileInput[], options: PostmanExportOptions): PostmanExport {
  const context: Context = { dropped: [], warnings: [], variables: new Map() };
  for (const [key, value] of Object.entries(options.environment ?? {})) addVariable(context, key, value, 'environment');
  const root: PostmanItem[] = [];
  for (const file of files) {
    const folderName = file.folder === undefined ? (file.path.split(/[\\/]/).pop() ?? file.path).replace(/\.(http|rest)$/i, '') : file.folder;
    const parsed = parseHttpFile(file.text);
    for (const block of parsed.blocks) {
      for (const variable of block.variables) addVariable(context, variable.name, variable.value, file.path);
      sayKept(block, file.path, context);
      if (!block.request) continue;
      const nested = block.directives.find((d) => d.key === 'folder')?.value.split('/').filter(Boolean) ?? [];
      const path = [...(folderName === null ? [] : [folderName]), ...nested];
      folderOf(root, path).push(itemOf(block, block.request, file.path, context));
    }
  }
  const collection: PostmanCollection = {
    info: { name: options.name, schema: POSTMAN_SCHEMA_V21 },
    item: root,
    ...(context.variables.size ? { variable: [...context.variables].map(([key, value]) => ({ key, value, type: 'string' })) } : {}),
  };
  let text = `${JSON.stringify(collection, null, 2)}\n`;
  // Last line of defence: a known secret value anywhere (a comment, a URL) never leaves.
  for (const secret of [...(options.knownSecrets ?? [])].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    const encoded = JSON.stringify(secret).slice(1, -1);
    if (text.includes(encoded)) {
      text = text.split(encoded).join(REDACTED);
      context.dropped.push({ where: 'collection', what: 'a known secret value' });
    }
  }
  return { collection: JSON.parse(text) as PostmanCollection, text, dropped: context.dropped, warnings: context.warnings };
}

function addVariable(context: Context, key: string, value: string, where: string): void {
  let safe = value;
  if (isLiteralSecret(key, value)) {
    context.dropped.push({ where, what: `variable ${key}` });
    safe = '';
  }
  const previous = context.variables.get(key);
  if (previous !== undefined && previous !== safe) context.warnings.push(`${where}: variable ${key} has another value in another file; Postman keeps one value per collection (the first).`);
  if (previous === undefined) context.variables.set(key, safe);
}

/** Every construct the parser kept on a block (other tools' scripts, redirects, …): Postman has no place for it, so each is said. */
function sayKept(block: RequestBlock, where: string, context: Context): void {
  for (const kept of block.kept) {
    context.warnings.push(`${where}: line ${kept.range.start.line + 1}, ${keptConstructName(kept.kind)}: not exported (a Postman request has no place for it).`);
  }
}

function folderOf(root: PostmanItem[], path: readonly string[]): PostmanItem[] {
  let items = root;
  for (const name of path) {
    let folder = items.find((i) => i.item !== undefined && i.name === name);
    if (!folder) {
      folder = { name, item: [] };
      items.push(folder);
    }
    items = folder.item!;
  }
  return items;
}

function header(headers: readonly { name: string; value: string }[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/** A block's comments: the headers and query parameters Postman keeps disabled, and the other comments. */
function commentsOf(block: RequestBlock): { comments: string[]; disabledHeaders: PostmanKeyValue[]; disabledQuery: PostmanKeyValue[] } {
  const comments: string[] = [];
  const disabledHeaders: PostmanKeyValue[] = [];
  const disabledQuery: PostmanKeyValue[] = [];
  for (const comment of block.comments.map((c) => c.text.trim())) {
    const h = DISABLED_HEADER.exec(comment);
    const q = DISABLED_QUERY.exec(comment);
    if (q) disabledQuery.push({ key: q[1]!.trim(), value: q[2] ?? '' });
    else if (h) disabledHeaders.push({ key: h[1]!.trim(), value: h[2] ?? '', disabled: true });
    else comments.push(comment);
  }
  return { comments, disabledHeaders, disabledQuery };
}

/** The request's body as Postman holds it; `text` is the inline body, its credentials scrubbed already. */
function bodyOf(request: HttpRequestNode, text: string | undefined, contentType: string, where: string, context: Context): PostmanRequest['body'] {
  if (request.body?.kind === 'include') {
    context.warnings.push(`${where}: the body is the file ${request.body.path}; Postman needs it chosen again on import.`);
    return { mode: 'file', file: { src: request.body.path } };
  }
  if (text === undefined || text === '') return undefined;
  if (isFormBody(contentType)) {
    const pairs = text.split('&').filter(Boolean).map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? { key: decodeFormValue(pair), value: '' } : { key: decodeFormValue(pair.slice(0, eq)), value: decodeFormValue(pair.slice(eq + 1)) };
    });
    return { mode: 'urlencoded', urlencoded: pairs.map((p) => ({ ...p, type: 'text' })) };
  }
  const json = /json/i.test(contentType);
  return { mode: 'raw', raw: text, ...(json ? { options: { raw: { language: 'json' } } } : {}) };
}

function itemOf(block: RequestBlock, request: HttpRequestNode, path: string, context: Context): PostmanItem {
  const { comments, disabledHeaders, disabledQuery } = commentsOf(block);
  let auth: PostmanRequest['auth'];
  const written: Array<{ name: string; value: string; disabled?: boolean }> = [];
  for (const h of request.headers) {
    const basic = /^Basic\s+(\{\{[^{}]*\}\}):(\{\{[^{}]*\}\})$/i.exec(h.value.trim());
    if (h.name.toLowerCase() === 'authorization' && basic) {
      auth = { type: 'basic', basic: [{ key: 'username', value: basic[1]!, type: 'string' }, { key: 'password', value: basic[2]!, type: 'string' }] };
      continue;
    }
    written.push({ name: h.name, value: h.value });
  }
  for (const h of disabledHeaders) written.push({ name: h.key, value: h.value ?? '', disabled: true });
  const scrubbed = scrubRequestCredentials({
    url: request.requestLine.url + request.queryContinuations.map((q) => q.text.trim()).join(''),
    headers: written,
    disabledQuery: disabledQuery.map((q) => ({ key: q.key, value: q.value ?? '' })),
    ...(request.body?.kind === 'inline' ? { body: request.body.text.replace(/\r\n?/g, '\n') } : {}),
  }, variableHeaderReference);
  // Named by its URL once scrubbed: the report never quotes a credential.
  const where = `${path}: ${request.name ?? scrubbed.request.url}`;
  for (const found of scrubbed.found) {
    context.dropped.push({ where, what: found.what, replacedBy: found.replacedBy });
    // Every reference written in a secret's place is a collection variable, added empty.
    for (const variable of found.replacedBy.matchAll(/\{\{([\w.-]+)\}\}/g)) if (!context.variables.has(variable[1]!)) context.variables.set(variable[1]!, '');
  }
  const url = scrubbed.request.url;
  const headers: PostmanKeyValue[] = scrubbed.request.headers.map((h) => ({ key: h.name, value: h.value, ...(h.disabled ? { disabled: true } : {}) }));
  const contentType = header(request.headers.map((h) => ({ name: h.name, value: h.value })), 'content-type') ?? '';
  const body = bodyOf(request, scrubbed.request.body, contentType, where, context);
  if (request.responseHandlers.length) context.warnings.push(`${where}: response handler scripts are not exported.`);
  const name = block.directives.find((d) => d.key === 'name')?.value;
  const directives = block.directives.filter((d) => d.key !== 'name' && d.key !== 'folder').map((d) => ({ key: d.key, value: d.value }));
  return {
    name: block.separator?.title || name || `${request.requestLine.method} ${url}`,
    request: {
      method: request.requestLine.method,
      header: headers,
      ...(auth ? { auth } : {}),
      ...(body ? { body } : {}),
      url: structuredUrl(url, scrubbed.request.disabledQuery ?? []),
      ...(comments.length ? { description: comments.join('\n') } : {}),
    },
    // `# @no-redirect` is Postman's own setting too: Postman then sends it as the file does.
    ...postmanSettings(directives),
    'x-apiwb': { ...(name ? { name } : {}), ...(directives.length ? { directives } : {}), ...(comments.length ? { comments } : {}) },
  };
}
