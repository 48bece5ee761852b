// The subset of the Postman collection format v2.1 (https://schema.getpostman.com/json/collection/v2.1.0/
// collection.json) that import and export use, and a tolerant reader that says clearly, naming the
// source, when a file is not a v2.1 collection.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { jsonTextTooDeep } from '../../json/depth';
import { isJsonObject } from '../../json/numberText';
import { scalarText } from '../../text/scalarText';

/** Where a secret was found and dropped, on import or export; never its value. */
export interface DroppedSecret {
  /** e.g. `Constituents / Create constituent`, or `collection variables`. */
  readonly where: string;
  /** e.g. `bearer token`, `header X-API-Key`, `variable api_key`, `body field password`. */
  readonly what: string;
  /** The `{{reference}}` written in its place, when one was. */
  readonly replacedBy?: string;
}

export const POSTMAN_SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export interface PostmanKeyValue {
  key: string;
  value?: string;
  disabled?: boolean;
  type?: string;
  description?: string;
}

export interface PostmanUrl {
  raw?: string;
  protocol?: string;
  host?: string[] | string;
  port?: string;
  path?: string[] | string;
  query?: PostmanKeyValue[];
  variable?: PostmanKeyValue[];
}

export interface PostmanAuth {
  type: string;
  [method: string]: unknown;
}

export interface PostmanBody {
  mode?: string; // 'raw', 'urlencoded', 'formdata', 'file', 'graphql', or another tool's
  raw?: string;
  urlencoded?: PostmanKeyValue[];
  formdata?: PostmanKeyValue[];
  options?: { raw?: { language?: string } };
  file?: { src?: string };
  graphql?: { query?: string; variables?: string };
  disabled?: boolean;
}

export interface PostmanRequest {
  method?: string;
  url?: PostmanUrl | string;
  header?: PostmanKeyValue[] | string;
  body?: PostmanBody;
  auth?: PostmanAuth | null;
  description?: unknown;
}

/** API Workbench's own item extension: the .http `# @name`, other directives and comments, for round trips. */
export interface ApiwbItemExtension {
  name?: string;
  directives?: Array<{ key: string; value: string }>;
  comments?: string[];
}

export interface PostmanItem {
  name?: string;
  description?: unknown;
  request?: PostmanRequest | string;
  item?: PostmanItem[];
  auth?: PostmanAuth | null;
  event?: unknown[];
  response?: unknown[];
  /** Postman's per-request settings (followRedirects, strictSSL, …). */
  protocolProfileBehavior?: unknown;
  'x-apiwb'?: ApiwbItemExtension;
}

export interface PostmanCollection {
  info: { name: string; schema: string; description?: unknown; _postman_id?: string };
  item: PostmanItem[];
  auth?: PostmanAuth | null;
  variable?: PostmanKeyValue[];
  event?: unknown[];
}

export class PostmanImportError extends Error {
  constructor(readonly source: string, readonly detail: string) {
    super(`${source}: ${detail}`);
    this.name = 'PostmanImportError';
  }
}

/** Parses a collection file; throws PostmanImportError naming `source`. */
export function readPostmanCollection(text: string, source: string): PostmanCollection {
  if (text.trim() === '') throw new PostmanImportError(source, 'the file is empty.');
  let value: unknown;
  try {
    // JSON.parse does not recurse per level: a collection nesting 20 000 folders reads like any other.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new PostmanImportError(source, `not valid JSON${syntaxErrorPlace(text)}.`);
  }
  if (!isJsonObject(value) || !isJsonObject(value['info'])) {
    throw new PostmanImportError(source, "not a Postman collection: no 'info' object (an environment or a globals file cannot be imported as a collection).");
  }
  const schema = value['info']['schema'];
  if (typeof schema !== 'string' || !/collection\/v2\.\d/.test(schema)) {
    throw new PostmanImportError(source, "not a Postman collection v2.1: 'info.schema' names no collection v2 schema.");
  }
  if (!/v2\.1/.test(schema)) throw new PostmanImportError(source, `a collection in format ${schema.replace(/^.*collection\//, '').replace(/\/.*$/, '')}; export it from Postman as Collection v2.1 and import again.`);
  if (!Array.isArray(value['item'])) throw new PostmanImportError(source, "the collection has no 'item' list.");
  return value as unknown as PostmanCollection;
}

/** `: <what> at line N`, from jsonc-parser's error (which recurses: not asked about text nested too deep). */
function syntaxErrorPlace(text: string): string {
  if (jsonTextTooDeep(text)) return '';
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  return first ? `: ${printParseErrorCode(first.error)} at line ${text.slice(0, first.offset).split('\n').length}` : '';
}

/** Postman descriptions are a string or `{ content, type }`. */
export function descriptionText(description: unknown): string | undefined {
  if (typeof description === 'string') return description;
  if (isJsonObject(description) && typeof description['content'] === 'string') return description['content'];
  return undefined;
}

/** The `key` entries of an auth block (`bearer: [{ key: 'token', value }]`), as a map. */
export function authParams(auth: PostmanAuth): Record<string, string> {
  const entries = auth[auth.type];
  const out: Record<string, string> = {};
  if (Array.isArray(entries)) {
    for (const entry of entries) if (isJsonObject(entry) && typeof entry['key'] === 'string') out[entry['key']] = entry['value'] === undefined ? '' : scalarText(entry['value']);
  } else if (isJsonObject(entries)) {
    for (const [key, value] of Object.entries(entries)) out[key] = String(value);
  }
  return out;
}
