// Postman collection v2.1 → .http files plus environment variables, with no secret written anywhere.
// Layout: requests at the collection root go to `<collection>.http`; each top-level folder becomes
// `<folder>.http`; deeper folders stay in their top-level file, each request marked `# @folder A/B`.
// Each request is a `### <Postman name>` block with a `# @name` identifier. Auth (own or inherited
// from folders and the collection) becomes headers: a `{{reference}}` credential is kept, a literal
// one is dropped, reported, and replaced by `{{$auth.token("<authId>")}}` (bearer/basic) or a
// `{{variable}}` (API key). Secret-looking variables, headers, query and body fields are treated alike.
// Scripts (events) and saved responses are not imported: they are reported as warnings.
import { printNormalizedHttpFile, type BlockSpec } from '../../httpfile';
import { hasLiteral, isLiteralSecret, isOnlyReferences, isSecretName } from '../../secrets/vocabulary';
import {
  authParams, descriptionText, readPostmanCollection, type PostmanAuth, type PostmanCollection, type PostmanItem, type PostmanKeyValue, type PostmanRequest,
} from './model';
import {
  scrubFormPairs, scrubHeaderValue, scrubJsonBody, scrubUrlQuery, variableNameFor, type DroppedSecret,
} from './secrets';
import { urlText } from './urls';

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
  readonly files: readonly ImportedHttpFile[];
  /** Collection variables without secrets, for an http-client.env.json environment. */
  readonly environment: { readonly name: string; readonly variables: Readonly<Record<string, string>> };
  /** Every secret left out (never its value). */
  readonly dropped: readonly DroppedSecret[];
  readonly warnings: readonly string[];
}

const IMPLIED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: 'application/json', xml: 'application/xml', html: 'text/html', text: 'text/plain', javascript: 'application/javascript',
};

export function slug(text: string): string {
  return text.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'collection';
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
  const located = collect(collection.item, [], collection.auth ?? undefined, context);
  for (const entry of located) noteCredentialVariables(entry.auth, context);
  const groups = new Map<string | null, Located[]>();
  for (const entry of located) {
    const key = entry.folders[0] ?? null;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const usedPaths = new Set<string>();
  const files: ImportedHttpFile[] = [];
  for (const [folder, entries] of groups) {
    const path = uniquePath(`${slug(folder ?? name)}.http`, usedPaths);
    const names = new Set<string>();
    const blocks: BlockSpec[] = [{ comments: [`Imported from the Postman collection "${name}"${folder ? `, folder "${folder}"` : ''}. Secrets were not imported.`] }];
    for (const entry of entries) blocks.push(requestBlock(entry, names, context));
    files.push({ path, folder, text: printNormalizedHttpFile(blocks), requests: entries.length });
  }
  return {
    name,
    files,
    environment: { name: options.environment ?? 'postman', variables: collectionVariables(collection, context) },
    dropped: context.dropped,
    warnings: context.warnings,
  };
}

function uniquePath(path: string, used: Set<string>): string {
  let candidate = path;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = path.replace(/\.http$/, `-${n}.http`);
  used.add(candidate.toLowerCase());
  return candidate;
}

function collect(items: readonly PostmanItem[], folders: readonly string[], inherited: PostmanAuth | undefined, context: Context): Located[] {
  const out: Located[] = [];
  for (const item of items) {
    const auth = item.auth === undefined || item.auth?.type === 'inherit' ? inherited : (item.auth ?? undefined);
    if (Array.isArray(item.item)) {
      out.push(...collect(item.item, [...folders, item.name ?? 'Folder'], auth, context));
      continue;
    }
    const request: PostmanRequest = typeof item.request === 'string' ? { method: 'GET', url: item.request } : (item.request ?? {});
    const own = request.auth === undefined || request.auth?.type === 'inherit' ? auth : (request.auth ?? undefined);
    const where = [...folders, item.name ?? ''].join(' / ');
    if (item.event?.length) context.warnings.push(`${where}: ${item.event.length} script(s) not imported (API Workbench never runs collection scripts).`);
    if (item.response?.length) context.warnings.push(`${where}: ${item.response.length} saved response example(s) not imported.`);
    out.push({ item, request, folders, auth: own });
  }
  return out;
}

function noteCredentialVariables(auth: PostmanAuth | undefined, context: Context): void {
  if (!auth) return;
  for (const [key, value] of Object.entries(authParams(auth))) {
    if (['token', 'password', 'value', 'accessToken', 'clientSecret'].includes(key)) {
      for (const match of value.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) context.credentialVariables.add(match[1] ?? '');
    }
  }
}

function collectionVariables(collection: PostmanCollection, context: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const variable of collection.variable ?? []) {
    if (!variable.key || variable.disabled) continue;
    const value = variable.value === undefined ? '' : String(variable.value);
    const declaredSecret = variable.type === 'secret' || context.credentialVariables.has(variable.key);
    if (declaredSecret ? hasLiteral(value) : isLiteralSecret(variable.key, value)) {
      context.dropped.push({ where: 'collection variables', what: `variable ${variable.key}` });
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

function scrubQuery(url: string, where: string, context: Context): string {
  return scrubUrlQuery(url, (name, reference) => { context.dropped.push({ where, what: `query parameter ${name}`, replacedBy: reference }); });
}

/** Form pairs as a body, encoding everything but `{{references}}`. */
function formBody(pairs: readonly PostmanKeyValue[]): string {
  const encode = (text: string): string => text.split(/(\{\{[^{}]*\}\})/).map((part) => (part.startsWith('{{') ? part : encodeURIComponent(part))).join('');
  return pairs.map((p) => `${encode(p.key)}=${encode(p.value ?? '')}`).join('&');
}

function requestBlock(entry: Located, names: Set<string>, context: Context): BlockSpec {
  const { item, request } = entry;
  const title = item.name ?? `${request.method ?? 'GET'} request`;
  const where = [...entry.folders, title].join(' / ');
  const extension = item['x-apiwb'];
  const comments: string[] = extension?.comments ? [...extension.comments] : (descriptionText(item.description ?? request.description)?.split(/\r?\n/).filter((l) => l.trim()) ?? []);
  const url = urlText(request.url);
  let urlTextValue = scrubQuery(url.text, where, context);
  const headers: Array<{ name: string; value: string }> = [];
  const auth = authHeader(entry.auth, where, context);
  if (auth.query) urlTextValue += `${urlTextValue.includes('?') ? '&' : '?'}${auth.query}`;
  for (const q of url.disabledQuery) comments.push(`disabled query: ${q.key}=${q.value ?? ''}`);
  const explicit = headerList(request);
  if (auth.header && !explicit.some((h) => !h.disabled && h.key.toLowerCase() === auth.header!.name.toLowerCase())) headers.push(auth.header);
  for (const header of explicit) {
    const replaced = scrubHeaderValue(header.key, header.value ?? '', (scheme) => (scheme && /^(bearer|basic)$/i.test(scheme) ? `{{$auth.token("${context.authId}")}}` : `{{${variableNameFor(header.key)}}}`));
    if (replaced !== undefined) context.dropped.push({ where, what: `header ${header.key}`, replacedBy: replaced });
    const value = replaced ?? header.value ?? '';
    if (header.disabled) comments.push(`disabled: ${header.key}: ${replaced === undefined ? value : replaced}`);
    else headers.push({ name: header.key, value });
  }
  const hasHeader = (name: string): boolean => headers.some((h) => h.name.toLowerCase() === name);
  let body: string | undefined;
  const b = request.body;
  const onDrop = (field: string, reference: string): void => { context.dropped.push({ where, what: `body field ${field}`, replacedBy: reference }); };
  if (b && !b.disabled) {
    if (b.mode === 'raw' && b.raw !== undefined && b.raw !== '') {
      const language = b.options?.raw?.language;
      const contentType = language ? IMPLIED_CONTENT_TYPES[language] : undefined;
      if (contentType && !hasHeader('content-type')) headers.push({ name: 'Content-Type', value: contentType });
      body = language === 'json' || /^\s*[{[]/.test(b.raw) ? scrubJsonBody(b.raw, onDrop) : b.raw;
    } else if (b.mode === 'urlencoded') {
      const pairs = scrubFormPairs((b.urlencoded ?? []).filter((p) => !p.disabled), onDrop);
      if (!hasHeader('content-type')) headers.push({ name: 'Content-Type', value: 'application/x-www-form-urlencoded' });
      body = formBody(pairs);
    } else if (b.mode === 'graphql' && b.graphql?.query) {
      // Postman sends a GraphQL body as JSON {query, variables}; write exactly that.
      let variables: unknown = {};
      try {
        variables = b.graphql.variables?.trim() ? JSON.parse(b.graphql.variables) : {};
      } catch {
        context.warnings.push(`${where}: the GraphQL variables are not JSON; they were left out.`);
      }
      if (!hasHeader('content-type')) headers.push({ name: 'Content-Type', value: 'application/json' });
      body = scrubJsonBody(JSON.stringify({ query: b.graphql.query, variables }, null, 2), onDrop);
    } else if (b.mode && b.mode !== 'raw') {
      context.warnings.push(`${where}: a '${b.mode}' body is not imported; write it in the .http file by hand.`);
    }
  }
  const name = uniqueName(extension?.name ?? identifierOf(title), names);
  const folder = entry.folders.slice(1).join('/');
  return {
    title,
    comments: comments.map((c) => c.replace(/^@/, '(@)')),
    variables: url.pathVariables.filter((v) => v.value !== undefined && v.value !== '').map((v) => ({ name: v.key, value: String(v.value) })),
    directives: [
      { key: 'name', value: name },
      ...(folder ? [{ key: 'folder', value: folder }] : []),
      ...(extension?.directives ?? []).filter((d) => d.key !== 'name' && d.key !== 'folder'),
    ],
    request: { method: (request.method ?? 'GET').toUpperCase(), url: urlTextValue, headers, ...(body !== undefined ? { body } : {}) },
  };
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name}${n}`;
  used.add(candidate);
  return candidate;
}

/** An http-client.env.json text with the imported environment merged into `existing` (if any). */
export function envFileWithImport(imported: PostmanImport, existing?: string): string {
  const base = existing ? (JSON.parse(existing) as Record<string, unknown>) : {};
  const current = base[imported.environment.name];
  const merged = { ...(current && typeof current === 'object' ? current : {}), ...imported.environment.variables };
  return `${JSON.stringify({ ...base, [imported.environment.name]: merged }, null, 2)}\n`;
}
