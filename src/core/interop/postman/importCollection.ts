// Postman collection v2.1 → .http files plus environment variables, with no secret written anywhere.
// Layout: requests at the collection root go to `<collection>.http`; each top-level folder becomes
// `<folder>.http`; deeper folders stay in their top-level file, each request marked `# @folder A/B`.
// Each request is a `### <Postman name>` block with a `# @name` identifier. Auth (own or inherited
// from folders and the collection) becomes headers: a `{{reference}}` credential is kept, a literal
// one is dropped, reported, and replaced by `{{$auth.token("<authId>")}}` (bearer/basic) or a
// `{{variable}}` (API key). Secret-looking variables, headers, query and body fields are treated alike.
// Scripts (events) and saved responses are not imported: they are reported as warnings.
// Safe by construction against a hostile collection: every block is printed by the checking printer
// (a line break in a name, header, URL or body never makes another request), and checked with the
// product's own secret check (the collections' secretProblem) before it is kept; what either refuses is
// dropped and listed. URL userinfo is removed. Folders deeper than MAX_FOLDER_DEPTH are flattened; the
// work is linear in the number of items; names become file and folder names that stay inside the target.
import { secretProblem } from '../../collections/requestBlocks';
import { findSecretsInEnvironment } from '../../env/secretCheck';
import { HttpPrintError, printNormalizedHttpFile, type BlockSpec } from '../../httpfile';
import { hasLiteral, isOnlyReferences, isSecretName, referencesIn, URL_USERINFO } from '../../secrets/vocabulary';
import { scrubRequestCredentials, variableNameFor, type HeaderText } from '../../secrets/literalCredentials';
import {
  authParams, descriptionText, readPostmanCollection, type DroppedSecret, type PostmanAuth, type PostmanCollection, type PostmanItem, type PostmanKeyValue, type PostmanRequest,
} from './model';
import { bodyText } from './importBody';
import { urlText } from './urls';
import { faultText } from '../../text/faultText';
import { oneLine } from '../../text/oneLine';
import { settingsDirectives } from './settings';

export interface PostmanImportOptions {
  /** Auth id written as `{{$auth.token("<authId>")}}` where a literal credential was. Default: the collection name, slugged. */
  readonly authId?: string;
  /** Name of the environment the collection variables go to. Default 'postman'. */
  readonly environment?: string;
}

export interface ImportedHttpFile {
  /** File name relative to the collection folder, e.g. `Constituents.http`. */
  readonly path: string;
  /** The top-level Postman folder the file holds, or null for the collection's root requests. */
  readonly folder: string | null;
  readonly text: string;
  readonly requests: number;
}

export interface PostmanImport {
  readonly name: string;
  /** The folder to write the files into: the collection name as one safe path segment (never `.`, `..` or empty). */
  readonly folder: string;
  readonly files: readonly ImportedHttpFile[];
  /** Collection variables without secrets, for an http-client.env.json environment. */
  readonly environment: { readonly name: string; readonly variables: Readonly<Record<string, string>> };
  /** Every secret left out (never its value). */
  readonly dropped: readonly DroppedSecret[];
  readonly warnings: readonly string[];
}

/** Folders nested deeper than this keep their requests in the folder at this depth (`# @folder` says which). */
export const MAX_FOLDER_DEPTH = 16;

/** A name as one file or folder name: letters, digits, `.`, `_`, `-`; never `.`, `..`, hidden or empty. */
export function slug(text: string): string {
  const safe = text.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 100);
  return safe === '' ? 'collection' : safe;
}

/** `Create a constituent` → createAConstituent (a `# @name` other requests can reference). */
export function identifierOf(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  return /^[A-Za-z_]/.test(joined) ? joined : `request${joined}`;
}

interface Context {
  readonly authId: string;
  readonly dropped: DroppedSecret[];
  readonly warnings: string[];
  /** Variables used as credentials by auth blocks: their values are secrets too. */
  readonly credentialVariables: Set<string>;
}

interface Located {
  readonly item: PostmanItem;
  readonly request: PostmanRequest;
  /** Folder names from the top-level folder down (empty at the root). */
  readonly folders: readonly string[];
  readonly auth: PostmanAuth | undefined;
}

export function importPostmanCollection(text: string, source: string, options: PostmanImportOptions = {}): PostmanImport {
  const collection = readPostmanCollection(text, source);
  const name = collection.info.name || 'Postman collection';
  const context: Context = { authId: options.authId ?? slug(name).toLowerCase(), dropped: [], warnings: [], credentialVariables: new Set() };
  sayScripts(collection.event, 'the collection', context);
  const located = collect(collection.item, collection.auth ?? undefined, context);
  for (const entry of located) noteCredentialVariables(entry.auth, context);
  const groups = new Map<string | null, Located[]>();
  for (const entry of located) {
    const key = entry.folders[0] ?? null;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  const usedPaths = new Unique((name) => name.toLowerCase());
  const files: ImportedHttpFile[] = [];
  for (const [folder, entries] of groups) {
    const path = `${usedPaths.take(slug(folder ?? name), (base, n) => `${base}-${n}`)}.http`;
    const names = new Unique();
    // Each block is printed (and read back) on its own; the file is the blocks one blank line apart,
    // exactly what printing them together gives, without printing and parsing the whole file again.
    const texts = [printNormalizedHttpFile([{ comments: [`Imported from the Postman collection "${name}"${folder ? `, folder "${folder}"` : ''}. Secrets were not imported.`] }])];
    for (const entry of entries) {
      const text = checkedBlock(entry, names, context);
      if (text !== undefined) texts.push(text);
    }
    if (texts.length > 1) files.push({ path, folder, text: texts.join('\n'), requests: texts.length - 1 });
  }
  return {
    name,
    folder: slug(name),
    files,
    environment: { name: options.environment ?? 'postman', variables: collectionVariables(collection, context) },
    dropped: context.dropped,
    warnings: context.warnings,
  };
}

/** Unique names in amortised constant time: the next number to try is remembered per base name. */
class Unique {
  private readonly used = new Set<string>();
  private readonly next = new Map<string, number>();

  /** `fold` says which names count as the same (file names: case-insensitively). */
  constructor(private readonly fold: (name: string) => string = (name) => name) {}

  /** `base`, else `make(base, 2)`, `make(base, 3)`, … the first not taken. */
  take(base: string, make: (base: string, n: number) => string): string {
    const key = this.fold(base);
    if (!this.used.has(key)) {
      this.used.add(key);
      return base;
    }
    for (let n = this.next.get(key) ?? 2; ; n++) {
      const candidate = make(base, n);
      if (!this.used.has(this.fold(candidate))) {
        this.next.set(key, n + 1);
        this.used.add(this.fold(candidate));
        return candidate;
      }
    }
  }
}

/** Every request of the collection in order, walked with a stack (a collection may nest 20 000 folders). */
function collect(items: readonly PostmanItem[], collectionAuth: PostmanAuth | undefined, context: Context): Located[] {
  const out: Located[] = [];
  let flattened = false;
  const stack: Array<{ items: readonly PostmanItem[]; index: number; folders: readonly string[]; auth: PostmanAuth | undefined }> = [
    { items, index: 0, folders: [], auth: collectionAuth },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const item = frame.items[frame.index++];
    if (frame.index > frame.items.length) {
      stack.pop();
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const auth = item.auth === undefined || item.auth?.type === 'inherit' ? frame.auth : (item.auth ?? undefined);
    const where = [...frame.folders, oneLine(String(item.name ?? ''))].join(' / ');
    const folder = Array.isArray(item.item);
    const hasRequest = item.request !== undefined && item.request !== null;
    // An item is a request, a folder, or both (its request then stands before its folder's requests); one
    // that is neither is said and left out, never written as a request of nothing.
    if (!folder && !hasRequest) context.warnings.push(`${where}: not imported: the item has neither a request nor items.`);
    if (folder && hasRequest) context.warnings.push(`${where}: the item has both a request and items: its request is imported beside the folder of its items.`);
    if (hasRequest) out.push(located(item, frame.folders, auth, where, folder, context));
    if (!Array.isArray(item.item)) continue;
    const deeper = frame.folders.length < MAX_FOLDER_DEPTH;
    if (!deeper && !flattened) {
      flattened = true;
      context.warnings.push(`folders nested deeper than ${MAX_FOLDER_DEPTH} levels were flattened: their requests are in the folder ${frame.folders.join(' / ')}.`);
    }
    if (!hasRequest) sayScripts(item.event, `folder ${[...frame.folders, oneLine(String(item.name ?? 'Folder'))].join(' / ')}`, context);
    stack.push({ items: item.item, index: 0, folders: deeper ? [...frame.folders, oneLine(String(item.name ?? 'Folder'))] : frame.folders, auth });
  }
  return out;
}

/** An item's own request where it stands (`folders`), its scripts and saved responses said. */
function located(item: PostmanItem, folders: readonly string[], auth: PostmanAuth | undefined, where: string, folder: boolean, context: Context): Located {
  const request: PostmanRequest = typeof item.request === 'string' ? { method: 'GET', url: item.request } : (item.request ?? {});
  const own = request.auth === undefined || request.auth?.type === 'inherit' ? auth : (request.auth ?? undefined);
  sayScripts(item.event, folder ? `${where} (the request and its folder)` : where, context);
  if (item.response?.length) context.warnings.push(`${where}: ${item.response.length} saved response example(s) not imported.`);
  return { item, request, folders, auth: own };
}

/** Scripts (`event`) on a request, a folder or the collection: never imported, always said, whatever the level. */
function sayScripts(event: unknown, where: string, context: Context): void {
  if (Array.isArray(event) && event.length) context.warnings.push(`${where}: ${event.length} script(s) not imported (API Workbench never runs collection scripts).`);
}

/**
 * The request's block, or undefined when it must not be written: the printer refuses it (a line break
 * where it would make another request, a body line read as a separator) or the product's secret check
 * still finds a literal credential after the scrubbing. Either is listed.
 */
function checkedBlock(entry: Located, names: Unique, context: Context): string | undefined {
  const where = [...entry.folders, oneLine(String(entry.item.name ?? `${String(entry.request.method ?? 'GET')} request`))].join(' / ');
  try {
    const text = printNormalizedHttpFile([requestBlock(entry, names, context)]);
    const problem = secretProblem(text);
    if (!problem) return text;
    context.dropped.push({ where, what: `the whole request (${problem.replace(/ before saving it to a collection$/, '')})` });
  } catch (error) {
    // A field the printer refuses, or an item whose fields have the wrong types (a number for a method,
    // an object for a header value): that item is left out and said so, the rest of the import goes on.
    const why = error instanceof HttpPrintError ? error.message : `the item is malformed (${faultText(error)})`;
    context.warnings.push(`${where}: not imported: ${why}.`);
  }
  return undefined;
}

function noteCredentialVariables(auth: PostmanAuth | undefined, context: Context): void {
  if (!auth) return;
  for (const [key, value] of Object.entries(authParams(auth))) {
    if (['token', 'password', 'value', 'accessToken', 'clientSecret'].includes(key)) {
      for (const reference of referencesIn(value)) context.credentialVariables.add(reference.name);
    }
  }
}

function collectionVariables(collection: PostmanCollection, context: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const variable of Array.isArray(collection.variable) ? collection.variable : []) {
    if (!variable || typeof variable.key !== 'string' || !variable.key || variable.disabled) continue;
    const value = variable.value === undefined || variable.value === null ? '' : String(variable.value);
    const declaredSecret = variable.type === 'secret' || context.credentialVariables.has(variable.key);
    // The env-file check's own rule: what it would reject on load is never written.
    if (declaredSecret ? hasLiteral(value) : findSecretsInEnvironment('postman', { [variable.key]: value }).length > 0) {
      context.dropped.push({ where: 'collection variables', what: `variable ${oneLine(variable.key)}` });
      continue;
    }
    if (variable.key === '__proto__') {
      context.warnings.push("collection variables: '__proto__' not imported: an env file cannot hold a variable of that name.");
      continue;
    }
    out[variable.key] = value;
  }
  return out;
}

function headerList(request: PostmanRequest): PostmanKeyValue[] {
  if (Array.isArray(request.header)) return request.header;
  if (typeof request.header !== 'string') return [];
  return request.header.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => ({ key: l.slice(0, l.indexOf(':')).trim(), value: l.slice(l.indexOf(':') + 1).trim() }));
}

function authHeader(auth: PostmanAuth | undefined, where: string, context: Context): { header?: { name: string; value: string }; query?: string } {
  if (!auth || auth.type === 'noauth') return {};
  const params = authParams(auth);
  const drop = (what: string, replacedBy?: string): void => { context.dropped.push({ where, what, ...(replacedBy ? { replacedBy } : {}) }); };
  const tokenRef = `{{$auth.token("${context.authId}")}}`;
  switch (auth.type) {
    case 'bearer': {
      const token = params['token'] ?? '';
      if (token === '' || isOnlyReferences(token)) return { header: { name: 'Authorization', value: `Bearer ${token}`.trimEnd() } };
      drop('bearer token', tokenRef);
      return { header: { name: 'Authorization', value: `Bearer ${tokenRef}` } };
    }
    case 'basic': {
      const username = params['username'] ?? '';
      const password = params['password'] ?? '';
      if (isOnlyReferences(password) && (isOnlyReferences(username) || !isSecretName(username))) {
        return { header: { name: 'Authorization', value: `Basic ${username}:${password}` } };
      }
      drop('basic credentials', tokenRef);
      return { header: { name: 'Authorization', value: `Basic ${tokenRef}` } };
    }
    case 'apikey': {
      const key = params['key'] || 'X-API-Key';
      let value = params['value'] ?? '';
      if (value !== '' && !isOnlyReferences(value)) {
        const reference = `{{${variableNameFor(key)}}}`;
        drop(`API key ${key}`, reference);
        value = reference;
      }
      return params['in'] === 'query' ? { query: `${key}=${value}` } : { header: { name: key, value } };
    }
    default:
      if (Object.values(params).some((v) => v !== '' && !isOnlyReferences(v))) drop(`${auth.type} credentials`);
      context.warnings.push(`${where}: auth type '${auth.type}' is not converted; add its header by hand (with a {{variable}}, never the secret).`);
      return {};
  }
}

/**
 * The request's headers a .http line can hold, as written (disabled ones marked): one whose value is not
 * text or holds a line break is left out with a warning.
 */
function importableHeaders(explicit: ReturnType<typeof headerList>, where: string, context: Context): HeaderText[] {
  const headers: HeaderText[] = [];
  for (const header of explicit) {
    if (!header || typeof header.key !== 'string') continue;
    if (header.value !== undefined && header.value !== null && typeof header.value !== 'string') {
      context.warnings.push(`${where}: header '${oneLine(header.key)}' not imported: its value is not text.`);
      continue;
    }
    if (/[\r\n\u0085\u2028\u2029]/.test(`${header.key}${header.value ?? ''}`)) {
      context.warnings.push(`${where}: header '${oneLine(header.key)}' not imported: it holds a line break, which would start a new line of the .http file.`);
      continue;
    }
    headers.push({ name: header.key, value: header.value ?? '', ...(header.disabled ? { disabled: true } : {}) });
  }
  return headers;
}

function requestBlock(entry: Located, names: Unique, context: Context): BlockSpec {
  const { item, request } = entry;
  const title = oneLine(String(item.name ?? `${request.method ?? 'GET'} request`));
  const where = [...entry.folders, title].join(' / ');
  const extension = item['x-apiwb'];
  const comments: string[] = Array.isArray(extension?.comments) ? extension.comments.map(String) : (descriptionText(item.description ?? request.description)?.split(/\r?\n/).filter((l) => l.trim()) ?? []);
  const url = urlText(request.url);
  const auth = authHeader(entry.auth, where, context);
  // Every part through the one rule of literal credentials, disabled ones too; the user info is removed whole first.
  const scrubbed = scrubRequestCredentials({
    url: withoutUserinfo(url.text, where, context),
    headers: importableHeaders(headerList(request), where, context),
    disabledQuery: url.disabledQuery.map((q) => ({ key: String(q.key), value: String(q.value ?? '') })),
  }, (name, scheme) => (scheme && /^(bearer|basic)$/i.test(scheme) ? `{{$auth.token("${context.authId}")}}` : `{{${variableNameFor(name)}}}`));
  for (const found of scrubbed.found) context.dropped.push({ where, what: found.what, replacedBy: found.replacedBy });
  let urlTextValue = scrubbed.request.url;
  if (auth.query) urlTextValue += `${urlTextValue.includes('?') ? '&' : '?'}${auth.query}`;
  for (const q of scrubbed.request.disabledQuery ?? []) comments.push(`disabled query: ${q.key}=${q.value}`);
  const headers: Array<{ name: string; value: string }> = [];
  // The auth block's header first, unless the request gives one of the same name; a disabled one is a comment.
  if (auth.header && !scrubbed.request.headers.some((h) => !h.disabled && h.name.toLowerCase() === auth.header!.name.toLowerCase())) headers.push(auth.header);
  for (const header of scrubbed.request.headers) {
    if (header.disabled) comments.push(`disabled: ${header.name}: ${header.value}`);
    else headers.push({ name: header.name, value: header.value });
  }
  const body = bodyText(request.body, headers, where, context);
  const wanted = typeof extension?.name === 'string' && /^[\w.-]+$/.test(extension.name) ? extension.name : identifierOf(title);
  const name = names.take(wanted, (base, n) => `${base}${n}`);
  const folder = entry.folders.slice(1).map((f) => f.replace(/\//g, '-')).join('/');
  const extra = (Array.isArray(extension?.directives) ? extension.directives : []).filter((d) => d && d.key !== 'name' && d.key !== 'folder');
  const kept = keepSingleLine(extra.map((d) => ({ name: String(d.key), value: String(d.value ?? '') })), where, 'directive', context).map((d) => ({ key: d.name, value: d.value }));
  return {
    title,
    comments,
    variables: keepSingleLine(url.pathVariables.filter((v) => v.value !== undefined && v.value !== '').map((v) => ({ name: v.key, value: String(v.value) })), where, 'path variable', context),
    directives: [
      { key: 'name', value: name },
      ...(folder ? [{ key: 'folder', value: folder }] : []),
      ...kept,
      ...settingsDirectives(item.protocolProfileBehavior, kept, where, context.warnings),
    ],
    request: { method: (request.method ?? 'GET').toUpperCase(), url: urlTextValue, headers, ...(body !== undefined ? { body } : {}) },
  };
}

/** Name/value pairs a .http line can hold (a name, a value without line breaks); the others listed and left out. */
function keepSingleLine(pairs: ReadonlyArray<{ name: string; value: string }>, where: string, what: string, context: Context): Array<{ name: string; value: string }> {
  return pairs.filter((pair) => {
    if (/^[A-Za-z_][\w.-]*$/.test(pair.name) && !/[\r\n\u0085\u2028\u2029]/.test(pair.value)) return true;
    context.warnings.push(`${where}: ${what} '${oneLine(pair.name)}' not imported: a .http file cannot hold its name or its line breaks.`);
    return false;
  });
}

/** `https://user:password@host` → `https://host`: credentials in a URL are never written. */
function withoutUserinfo(url: string, where: string, context: Context): string {
  const match = URL_USERINFO.exec(url.trimStart());
  if (!match) return url;
  context.dropped.push({ where, what: 'URL user:password@' });
  return url.trimStart().replace(URL_USERINFO, '$1');
}
