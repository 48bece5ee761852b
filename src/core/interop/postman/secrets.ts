// What counts as a secret when moving requests between Postman and .http files, and how it is replaced.
// A value that is only `{{references}}` is never a secret (it names one); a literal credential is.
import { jsonTextTooDeep } from '../../json/depth';
import { AUTH_SCHEME, isCredentialHeader, isLiteralSecret, isOnlyReferences } from '../../secrets/vocabulary';
import { decodeFormValue, jsonStringContent } from '../../text/decode';

/** Where a secret was found and dropped; never its value. */
export interface DroppedSecret {
  /** e.g. `Constituents / Create constituent`, or `collection variables`. */
  readonly where: string;
  /** e.g. `bearer token`, `header X-API-Key`, `variable api_key`, `body field password`. */
  readonly what: string;
  /** The `{{reference}}` written in its place, when one was. */
  readonly replacedBy?: string;
}


/** `X-API-Key` → x_api_key, for variable references written in place of a secret. */
export function variableNameFor(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase() || 'secret';
}

/**
 * A header value with any literal credential replaced by `replacement` (scheme kept); undefined when
 * the value holds no secret (not a secret header, or only references).
 */
export function scrubHeaderValue(name: string, value: string, replacement: (scheme: string | undefined) => string): string | undefined {
  if (!isCredentialHeader(name)) return undefined;
  const scheme = AUTH_SCHEME.exec(value.trim());
  const credential = scheme ? (scheme[2] ?? '') : value.trim();
  if (credential === '' || isOnlyReferences(credential)) return undefined;
  if (scheme?.[1]?.toLowerCase() === 'basic' && /^[^:]*\{\{[^{}]*\}\}[^:]*:\s*\{\{[^{}]*\}\}$/.test(credential)) return undefined; // Basic {{u}}:{{p}}
  return scheme ? `${scheme[1]} ${replacement(scheme[1])}` : replacement(undefined);
}

/**
 * JSON body fields with secret names and literal string values → `{{field}}`. The replacement is
 * textual so the body keeps its formatting; a body where that misses a field is re-serialised.
 */
export function scrubJsonBody(text: string, onDrop: (field: string, reference: string) => void): string {
  const scrubbed = scrubTextFields(text, onDrop);
  if (jsonTextTooDeep(scrubbed)) return scrubbed; // too deep to walk: the textual pass is what it gets
  let value: unknown;
  try {
    value = JSON.parse(scrubbed);
  } catch {
    return scrubbed; // not JSON (e.g. unquoted {{refs}}): the textual pass is all we can do
  }
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node)) {
      if (typeof inner === 'string' && isLiteralSecret(key, inner)) {
        const reference = `{{${variableNameFor(key)}}}`;
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
  return changed ? JSON.stringify(walked, null, /^\s*[{[]\s*\n/.test(text) ? 2 : undefined) : scrubbed;
}

/** `"password": "literal"` pairs replaced in place, whatever the layout around them. */
function scrubTextFields(text: string, onDrop: (field: string, reference: string) => void): string {
  return text.replace(/"([^"\\]+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (whole, key: string, colon: string, inner: string) => {
    if (!isLiteralSecret(key, jsonStringContent(inner))) return whole;
    const reference = `{{${variableNameFor(key)}}}`;
    onDrop(key, reference);
    return `"${key}"${colon}"${reference}"`;
  });
}

/**
 * A body that is not JSON (XML, text, a hand-written form): `<password>x</password>`, `"token": "x"`
 * and `secret=x` with secret names and literal values become `{{name}}` references.
 */
export function scrubTextBody(text: string, onDrop: (field: string, reference: string) => void): string {
  const elements = text.replace(/<([A-Za-z_][\w.:-]*)(\s[^<>]*)?>([^<]*)<\/\1\s*>/g, (whole, tag: string, attributes: string | undefined, inner: string) => {
    const name = tag.includes(':') ? tag.slice(tag.lastIndexOf(':') + 1) : tag;
    if (!isLiteralSecret(name, inner.trim())) return whole;
    const reference = `{{${variableNameFor(name)}}}`;
    onDrop(name, reference);
    return `<${tag}${attributes ?? ''}>${reference}</${tag}>`;
  });
  const pairs = elements.replace(/(^|[?&\s;,])([A-Za-z_][\w.-]*)=([^&\s;,<>"']+)/g, (whole, before: string, name: string, value: string) => {
    if (!isLiteralSecret(name, decodeFormValue(value))) return whole;
    const reference = `{{${variableNameFor(name)}}}`;
    onDrop(name, reference);
    return `${before}${name}=${reference}`;
  });
  return scrubTextFields(pairs, onDrop);
}

/** `a=1&password=x` → `a=1&password={{password}}` for secret names with literal values. */
export function scrubFormPairs<T extends { key: string; value?: string }>(pairs: readonly T[], onDrop: (field: string, reference: string) => void): T[] {
  return pairs.map((pair) => {
    const value = pair.value ?? '';
    if (!isLiteralSecret(pair.key, value)) return pair;
    const reference = `{{${variableNameFor(pair.key)}}}`;
    onDrop(pair.key, reference);
    return { ...pair, value: reference };
  });
}

/** `?api_key=literal` → `?api_key={{api_key}}` for secret-named query parameters with literal values. */
export function scrubUrlQuery(url: string, onDrop: (field: string, reference: string) => void): string {
  return url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, separator: string, name: string, value: string) => {
    if (!isLiteralSecret(decodeFormValue(name), decodeFormValue(value))) return whole;
    const reference = `{{${variableNameFor(name)}}}`;
    onDrop(name, reference);
    return `${separator}${name}=${reference}`;
  });
}
