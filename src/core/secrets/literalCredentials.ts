// THE rule of the literal credentials of a request: where a request carries a credential in clear rather
// than a `{{reference}}` to one, and the request with each replaced by a `{{variable}}`. Every part is
// looked at, disabled ones too: the password of the URL's user info, credential headers, secret-named query
// parameters, and the secret-named fields of its body (JSON at any depth, a form, multipart parts, XML
// elements and `name=value` pairs of other text). Generated code refuses a request that has one (the code
// would carry it); the Postman export and import write the reference in its place. What a secret is stays
// the vocabulary's (isCredentialHeader, isLiteralSecret); a value that is only references names a secret.
// History masks the same credentials in the request blocks it stores (collections/requestBlocks.ts):
// the body's with `***` in place of the reference (`Replacement`), the collections refuse them.
import { jsonTextTooDeep } from '../json/depth';
import { jsonText, layoutIndent, NumberText, parseKeepingNumbers } from '../json/numberText';
import { decodeFormValue, jsonStringContent } from '../text/decode';
import { AUTH_SCHEME, hasLiteral, isFormBody, isCredentialHeader, isLiteralSecret, isOnlyReferences, URL_USERINFO } from './vocabulary';

/** A header as written; a disabled one (`# disabled: Name: value`, Postman's disabled) is not sent but is written. */
export interface HeaderText {
  readonly name: string;
  readonly value: string;
  readonly disabled?: boolean;
}

/** A query parameter kept disabled (Postman's, or `# disabled query: key=value`), as written. */
interface QueryPair {
  readonly key: string;
  readonly value: string;
}

/** The texts of a request as written: `{{references}}` unresolved. */
export interface RequestTexts {
  /** With its query. */
  readonly url: string;
  readonly headers: readonly HeaderText[];
  readonly disabledQuery?: readonly QueryPair[];
  /** Read as its Content-Type header says (JSON, form, multipart), else as text. */
  readonly body?: string;
}

/** Where a literal credential is, in words of messages (`header Authorization`, `body field password`); never its value. */
export interface LiteralCredential {
  readonly place: 'userinfo' | 'header' | 'query' | 'body';
  readonly what: string;
  /** What now stands where it was: the reference, or the header's whole value with its scheme. */
  readonly replacedBy: string;
}

/** The `{{reference}}` (with its braces) a header's literal credential becomes; `scheme` is its auth scheme, if any. */
type HeaderReference = (name: string, scheme: string | undefined) => string;

/** What a literal credential named `name` becomes: its `{{reference}}`, or a mask (History's `***`). */
type Replacement = (name: string) => string;

const referenceFor: Replacement = (name) => `{{${variableNameFor(name)}}}`;

/** `Authorization: Bearer x` → {{bearer_token}}, Basic → {{basic_credentials}}, `X-API-Key: x` → {{x_api_key}}. */
export const variableHeaderReference: HeaderReference = (name, scheme) =>
  `{{${scheme ? variableNameFor(`${scheme}_${/basic/i.test(scheme) ? 'credentials' : 'token'}`) : variableNameFor(name)}}}`;

/** Every literal credential of the request, in the order of its parts (user info, headers, query, body). */
export function literalCredentials(request: RequestTexts): LiteralCredential[] {
  return scrubRequestCredentials(request).found;
}

/** The request with every literal credential replaced by a reference, and where each was. */
export function scrubRequestCredentials(request: RequestTexts, headerReference: HeaderReference = variableHeaderReference): { request: RequestTexts; found: LiteralCredential[] } {
  const found: LiteralCredential[] = [];
  const note = (place: LiteralCredential['place'], what: string) => (field: string, replacedBy: string): void => void found.push({ place, what: `${what}${field}`, replacedBy });
  let url = scrubUserinfo(request.url, note('userinfo', ''));
  const headers = request.headers.map((header) => {
    const replaced = scrubHeaderValue(header.name, header.value, (scheme) => headerReference(header.name, scheme));
    if (replaced === undefined) return header;
    found.push({ place: 'header', what: `${header.disabled ? 'disabled header' : 'header'} ${header.name}`, replacedBy: replaced });
    return { ...header, value: replaced };
  });
  url = scrubUrlQuery(url, note('query', 'query parameter '));
  const disabledQuery = request.disabledQuery && scrubFormPairs(request.disabledQuery, note('query', 'disabled query parameter '), decodeFormValue);
  const contentType = headers.find((h) => !h.disabled && h.name.trim().toLowerCase() === 'content-type')?.value ?? '';
  const body = request.body === undefined ? undefined : scrubBody(request.body, contentType, note('body', 'body field '));
  return {
    request: { url, headers, ...(disabledQuery ? { disabledQuery } : {}), ...(body !== undefined ? { body } : {}) },
    found,
  };
}

/**
 * A body with its secret fields' literal values replaced, read as its Content-Type says: JSON (or text
 * that starts like JSON), a form, multipart parts; any other text by scrubTextBody.
 */
export function scrubBody(text: string, contentType: string, onDrop: (field: string, reference: string) => void, replace: Replacement = referenceFor): string {
  if (/json/i.test(contentType) || /^\s*[{[]/.test(text)) return scrubJsonBody(text, onDrop, replace);
  if (isFormBody(contentType)) return scrubFormText(text, onDrop, replace);
  if (/^\s*multipart\//i.test(contentType)) return scrubMultipart(text, contentType, onDrop, replace);
  return scrubTextBody(text, onDrop, replace);
}

/**
 * A multipart body: each part whose Content-Disposition names a secret (`name="password"`) and whose
 * content is a literal becomes the reference; a file part (`filename=`, or `< ./file` as its content) is a
 * file, not a value. Without a boundary to cut it by, it is read as other text.
 */
function scrubMultipart(text: string, contentType: string, onDrop: (field: string, reference: string) => void, replace: Replacement): string {
  const boundary = /\bboundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return scrubTextBody(text, onDrop, replace);
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  return text.split(delimiter).map((part) => {
    const parsed = /^(\r?\n(?:[^\r\n]+\r?\n)*?\r?\n)([\s\S]*?)(\r?\n)?$/.exec(part);
    if (!parsed) return part;
    const [, head = '', content = '', end = ''] = parsed;
    const name = /^content-disposition:[^\r\n]*?;\s*name="([^"]*)"/im.exec(head)?.[1];
    if (name === undefined || /^content-disposition:[^\r\n]*;\s*filename\*?=/im.test(head) || /^<@?\s/.test(content.trim())) return part;
    if (!isLiteralSecret(name, content.trim())) return part;
    const reference = replace(name);
    onDrop(name, reference);
    return `${head}${reference}${end}`;
  }).join(delimiter);
}

/** `https://ann:literal@host` → `https://ann:{{url_password}}@host`: a user name is not a secret, its password is. */
function scrubUserinfo(url: string, onDrop: (field: string, reference: string) => void): string {
  const match = URL_USERINFO.exec(url.trimStart());
  const user = match?.[2] ?? '';
  const password = match?.[3] ?? '';
  // A user name is no secret, unless it is a token shaped like one (a JWT).
  const secretUser = isLiteralSecret('user', decodeFormValue(user));
  if (!match || (!hasLiteral(decodeFormValue(password)) && !secretUser)) return url;
  const reference = '{{url_password}}';
  onDrop('URL user:password@', reference);
  return url.trimStart().replace(URL_USERINFO, (_whole, scheme: string) => `${scheme}${secretUser ? '{{url_user}}' : user}:${reference}@`);
}

/** `X-API-Key` → x_api_key, for variable references written in place of a secret. */
export function variableNameFor(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase() || 'secret';
}

/**
 * A header value with any literal credential replaced by `replacement` (scheme kept); undefined when
 * the value holds no secret (not a secret header, or only references).
 */
function scrubHeaderValue(name: string, value: string, replacement: (scheme: string | undefined) => string): string | undefined {
  if (!headerHasLiteral(name, value)) return undefined;
  const scheme = AUTH_SCHEME.exec(value.trim());
  return scheme ? `${scheme[1]} ${replacement(scheme[1])}` : replacement(undefined);
}

/**
 * Whether a credential header's value holds a literal credential: something beside its auth scheme and its
 * references (`Basic {{u}}:{{p}}` holds none); a Cookie's in the value of one of its pairs (`sid={{sid}}` holds
 * none, `sid={{sid}}; theme=dark` does: a cookie's name is no secret, any of its values may be one).
 */
export function headerHasLiteral(name: string, value: string): boolean {
  if (!isCredentialHeader(name)) return false;
  if (name.trim().toLowerCase() === 'cookie') return value.split(';').some((pair) => hasLiteral(pair.slice(pair.indexOf('=') + 1)));
  const scheme = AUTH_SCHEME.exec(value.trim());
  const credential = scheme ? (scheme[2] ?? '') : value.trim();
  if (credential === '' || isOnlyReferences(credential)) return false;
  return !(scheme?.[1]?.toLowerCase() === 'basic' && /^[^:]*\{\{[^{}]*\}\}[^:]*:\s*\{\{[^{}]*\}\}$/.test(credential)); // Basic {{u}}:{{p}}
}

/**
 * JSON body fields with secret names and literal string or number values → `{{field}}`. The replacement is
 * textual so the body keeps its formatting; a body where that misses a field is re-serialised.
 */
export function scrubJsonBody(text: string, onDrop: (field: string, reference: string) => void, replace: Replacement = referenceFor): string {
  const scrubbed = scrubTextFields(text, onDrop, replace);
  if (jsonTextTooDeep(scrubbed)) return scrubbed; // too deep to walk: the textual pass is what it gets
  let value: unknown;
  try {
    value = parseKeepingNumbers(scrubbed); // re-serialised, its numbers keep their text (1.10, 12345678901234567890)
  } catch {
    return scrubbed; // not JSON (e.g. unquoted {{refs}}): the textual pass is all we can do
  }
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object' || node instanceof NumberText) return node;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node)) {
      // A number is a literal too (a PIN, a numeric key), as the collections' check reads it.
      const literal = typeof inner === 'string' || typeof inner === 'number' ? String(inner) : inner instanceof NumberText ? inner.text : undefined;
      if (literal !== undefined && isLiteralSecret(key, literal)) {
        const reference = replace(key);
        onDrop(key, reference);
        out[key] = reference;
        changed = true;
      } else {
        out[key] = walk(inner);
      }
    }
    return out;
  };
  const walked = walk(value);
  return changed ? (jsonText(walked, layoutIndent(text)) ?? scrubbed) : scrubbed;
}

/** `"password": "literal"` (or a number) pairs replaced in place, whatever the layout around them. */
function scrubTextFields(text: string, onDrop: (field: string, reference: string) => void, replace: Replacement): string {
  return text.replace(/"([^"\\]+)"(\s*:\s*)(?:"((?:[^"\\]|\\.)*)"|(-?\d[\d.eE+-]*))/g, (whole, key: string, colon: string, inner: string | undefined, number: string | undefined) => {
    if (!isLiteralSecret(key, inner === undefined ? (number ?? '') : jsonStringContent(inner))) return whole;
    const reference = replace(key);
    onDrop(key, reference);
    return `"${key}"${colon}"${reference}"`;
  });
}

/**
 * A body that is not JSON (XML, text, a hand-written form): `<password>x</password>`, `"token": "x"`
 * and `secret=x` with secret names and literal values become `{{name}}` references.
 */
function scrubTextBody(text: string, onDrop: (field: string, reference: string) => void, replace: Replacement): string {
  const elements = text.replace(/<([A-Za-z_][\w.:-]*)(\s[^<>]*)?>([^<]*)<\/\1\s*>/g, (whole, tag: string, attributes: string | undefined, inner: string) => {
    const name = tag.includes(':') ? tag.slice(tag.lastIndexOf(':') + 1) : tag;
    if (!isLiteralSecret(name, inner.trim())) return whole;
    const reference = replace(name);
    onDrop(name, reference);
    return `<${tag}${attributes ?? ''}>${reference}</${tag}>`;
  });
  const pairs = elements.replace(/(^|[?&\s;,])([A-Za-z_][\w.-]*)=([^&\s;,<>"']+)/g, (whole, before: string, name: string, value: string) => {
    if (!isLiteralSecret(name, decodeFormValue(value))) return whole;
    const reference = replace(name);
    onDrop(name, reference);
    return `${before}${name}=${reference}`;
  });
  return scrubTextFields(pairs, onDrop, replace);
}

/**
 * `a=1&password=x` → `a=1&password={{password}}` for secret names with literal values; `decode` reads a
 * key and a value as they are meant (a query's are percent-encoded, a Postman form's are not).
 */
export function scrubFormPairs<T extends { key: string; value?: string }>(
  pairs: readonly T[], onDrop: (field: string, reference: string) => void, decode: (text: string) => string = (text) => text, replace: Replacement = referenceFor,
): T[] {
  return pairs.map((pair) => {
    const value = pair.value ?? '';
    const key = decode(pair.key);
    if (!isLiteralSecret(key, decode(value))) return pair;
    const reference = replace(key);
    onDrop(key, reference);
    return { ...pair, value: reference };
  });
}

/** A form body as written (`user=ann&password=x`): each pair scrubbed, the others kept byte for byte. */
function scrubFormText(text: string, onDrop: (field: string, reference: string) => void, replace: Replacement): string {
  return text.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const [scrubbed] = scrubFormPairs([{ key: pair.slice(0, eq), value: pair.slice(eq + 1) }], onDrop, (t) => decodeFormValue(t.trim()), replace);
    return `${scrubbed!.key}=${scrubbed!.value}`;
  }).join('&');
}

/** Whether a query parameter as written (percent-encoded: `pass%77ord=x`) holds a literal credential. */
export const queryPairIsLiteral = (name: string, value: string): boolean => isLiteralSecret(decodeFormValue(name), decodeFormValue(value));

/** `?api_key=literal` → `?api_key={{api_key}}` for secret-named query parameters with literal values. */
function scrubUrlQuery(url: string, onDrop: (field: string, reference: string) => void): string {
  return url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, separator: string, name: string, value: string) => {
    if (!queryPairIsLiteral(name, value)) return whole;
    const reference = `{{${variableNameFor(name)}}}`;
    onDrop(name, reference);
    return `${separator}${name}=${reference}`;
  });
}
