// The one secret vocabulary: which header names carry a credential, which field and variable names hold
// a secret, what a `{{reference}}` looks like and when a value is only references (a pointer to a secret,
// not the secret). Redaction, paging checkpoints, copy as curl, Postman import/export, collections and
// the env-file check all ask here, so they never disagree on what a secret is.

/** Request and response headers whose value is a credential (lower case), whatever isSecretName says of their words. */
const CREDENTIAL_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'set-cookie',
  'x-api-key', 'api-key', 'apikey', 'x-apikey', 'x-auth-token', 'x-access-token', 'x-session-token', 'x-refresh-token',
  'x-csrf-token', 'x-xsrf-token', 'x-amz-security-token', 'x-goog-api-key', 'x-vault-token', 'private-token',
  'ocp-apim-subscription-key', 'x-functions-key', 'x-client-secret',
]);

/** Credential headers whose value starts with an auth scheme ("Bearer …"), kept when the rest is hidden. */
const SCHEME_HEADER_NAMES: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization']);

/** The auth schemes recognised in front of a credential. */
export const AUTH_SCHEME = /^(Bearer|Basic|Digest|Token|ApiKey|Negotiate|NTLM|AWS4-HMAC-SHA256|OAuth)\s+(.*)$/is;

/**
 * THE secret words: a name that holds one holds a secret (`X-Service-Token`, `db_password`,
 * `aws_secret_access_key`), unless it describes one (DESCRIBING_WORDS). `key` alone is not one
 * (`Idempotency-Key`): only after a qualifier (`apikey`, `X-Service-Key`, `private_key`).
 * Matched two ways, each stated beside its rule: a header by the parts of its name (isCredentialHeader:
 * a part that is, or ends in, a word), any other name by substrings (isSecretName: camelCase has no
 * separators to cut at).
 */
const SECRET_WORDS: readonly string[] = ['password', 'passwd', 'passphrase', 'pwd', 'secret', 'token', 'credential'];
const KEY_QUALIFIERS: readonly string[] = ['api', 'access', 'private', 'service', 'subscription', 'signing'];
const KEY_QUALIFIER_SET: ReadonlySet<string> = new Set(KEY_QUALIFIERS);
/** By parts: a part that is, or ends in, a secret word or a qualified key (plural too: `credentials`). */
const SECRET_HEADER_PART = new RegExp(`(?:${SECRET_WORDS.join('|')}|(?:${KEY_QUALIFIERS.join('|')})key)s?$`);
/** By substrings: a secret word or a qualified key anywhere, a separator allowed before `key`. */
const SECRET_WORD = new RegExp(`${SECRET_WORDS.join('|')}|(?:${KEY_QUALIFIERS.join('|')})[\\s_-]?key`, 'i');

/** THE words that tell something ABOUT a secret rather than carry one: a URL, a type, a paging cursor, a count. */
const DESCRIBING_WORDS: readonly string[] = [
  'url', 'uri', 'endpoint', 'location', 'type', 'name', 'lifetime', 'page', 'cursor', 'continuation', 'next',
  'count', 'length', 'limit', 'max', 'policy', 'hint', 'prefix', 'format',
];
/**
 * By parts, for headers (`X-Debug-Token-Link`, `X-Token-Expires`): the describing words, and these as whole
 * parts only (inside a name they would hide secrets: `little_secret`, `linkedin_token`).
 */
const DESCRIBING_HEADER_PARTS: ReadonlySet<string> = new Set([...DESCRIBING_WORDS, 'link', 'ttl', 'expires', 'expiry', 'expiration']);
/**
 * By substrings, for other names (`token_url`, `nextPageToken`): the describing words, and `expir`, a
 * `header` name and a `sync` token (a cursor) — names only: a header named X-Sync-Token is a credential.
 */
const NOT_SECRET_WORD = new RegExp([...DESCRIBING_WORDS, 'expir', 'header', 'sync'].join('|'), 'i');

/**
 * THE rule of which header carries a credential: one of CREDENTIAL_HEADER_NAMES, or a name with a secret
 * word as a whole part, or ending one (`X-Service-Token`, `Api-Token`, `X-Client-Password`, `X-AuthToken`,
 * parts cut at `-`, `_`, `.` and spaces), unless the header tells about a credential: CORS headers
 * (`Access-Control-Allow-Credentials: true`) and a name with a describing part (`X-Debug-Token-Link`,
 * `X-Token-Expires`). By parts, not substrings. Redaction, a hop to another origin, resume checkpoints,
 * copy as curl, generated code and the proxy notice all ask here.
 */
export function isCredentialHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  if (CREDENTIAL_HEADER_NAMES.has(lower)) return true;
  // CORS headers name what a browser may send (credentials, headers); they carry none.
  if (lower.startsWith('access-control-')) return false;
  const parts = lower.split(/[-_.\s]+/);
  if (parts.some((part) => DESCRIBING_HEADER_PARTS.has(part))) return false;
  return parts.some((part, i) => SECRET_HEADER_PART.test(part) || (part === 'key' && KEY_QUALIFIER_SET.has(parts[i - 1] ?? '')));
}

export function hasAuthScheme(name: string): boolean {
  return SCHEME_HEADER_NAMES.has(name.trim().toLowerCase());
}

/** Field, parameter and variable names that are secrets by themselves (compared case-insensitively). */
const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'password', 'passwd', 'pwd', 'secret', 'token', 'access_token', 'refresh_token', 'id_token', 'client_secret',
  'service_key', 'servicekey', 'api_key', 'apikey', 'x-api-key', 'private_key', 'session', 'sessionid', 'session_id',
  'aws_secret_access_key', 'aws_session_token', 'subscription_key', 'pass', 'passphrase',
]);

/**
 * True when a field, parameter, header or variable of this name holds a secret: an exact secret name
 * (`password`, `token`), or a name containing a secret word that does not describe something else
 * (`aws_secret_access_key` yes, `token_url` and `nextPageToken` no).
 */
export function isSecretName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  if (lower === '') return false;
  if (SECRET_FIELD_NAMES.has(lower) || CREDENTIAL_HEADER_NAMES.has(lower)) return true;
  return SECRET_WORD.test(lower) && !NOT_SECRET_WORD.test(lower);
}

/** Matches every name isSecretName accepts (and more): a cheap first test for fast paths over serialised text. */
export const SECRET_NAME_HINT = /pass|secret|token|key|credential|session|pwd|cookie|authorization/i;

// The fast paths (redaction's name=value rule, a checkpoint's query) skip a text in which SECRET_NAME_HINT
// finds nothing, so it must find a word in every name isSecretName accepts: each listed name, each secret
// word and each qualified key. Checked as the vocabulary loads: a name added to a list and missed by the
// hint stops everything.
for (const name of [...SECRET_FIELD_NAMES, ...CREDENTIAL_HEADER_NAMES, ...SECRET_WORDS, ...KEY_QUALIFIERS.map((q) => `${q}key`)]) {
  if (!SECRET_NAME_HINT.test(name)) throw new Error(`SECRET_NAME_HINT finds no word in the secret name '${name}'`);
}

/** One `{{name}}` or `{{ $auth.token("id") }}` of a text: where it starts, where it ends (after its `}}`) and its name, the spaces around it left out. */
export interface Reference {
  readonly start: number;
  readonly end: number;
  readonly name: string;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * THE reference rule: the first `{{…}}` at or after `from`, that is a `{{`, then no brace up to the first
 * `}}`, which ends it (what /\{\{\s*([^{}]*?)\s*\}\}/g finds, without a regular expression: resolving a
 * request's variables runs this on every text of every request of a run). A `{{` with a brace before its
 * `}}` starts none; the search goes on one character later, so `{{{a}}` holds `{{a}}`.
 */
export function nextReference(text: string, from = 0): Reference | undefined {
  let start = text.indexOf('{{', from);
  while (start !== -1) {
    let end = start + 2;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === OPEN_BRACE || c === CLOSE_BRACE) break;
      end++;
    }
    // No brace after it: no `}}` either, for this `{{` or any later one.
    if (end === text.length) return undefined;
    if (text.charCodeAt(end) === CLOSE_BRACE && text.charCodeAt(end + 1) === CLOSE_BRACE) {
      return { start, end: end + 2, name: text.slice(start + 2, end).trim() };
    }
    start = text.indexOf('{{', start + 1);
  }
  return undefined;
}

/** Every reference of a text, in order. */
export function referencesIn(text: string): Reference[] {
  const found: Reference[] = [];
  for (let reference = nextReference(text); reference; reference = nextReference(text, reference.end)) found.push(reference);
  return found;
}

/** True when the text holds at least one `{{…}}`. */
export function hasReference(text: string): boolean {
  return nextReference(text) !== undefined;
}

/** True when the text holds at least one `{{…}}` and nothing else but whitespace: it names a secret, it is not one. */
export function isOnlyReferences(text: string): boolean {
  return hasReference(text) && !hasLiteral(text);
}

/** True when something other than blanks and `{{…}}` references is left in the text. */
export function hasLiteral(text: string): boolean {
  return withoutReferences(text, '').trim() !== '';
}

/** The text with each of its references replaced by `replacement`. */
export function withoutReferences(text: string, replacement: string): string {
  return mapAroundReferences(text, (literal) => literal, () => replacement);
}

/** The text rebuilt piece by piece: each stretch between references through `literal`, each reference (as written) through `reference`. */
export function mapAroundReferences(text: string, literal: (part: string) => string, reference: (written: string) => string): string {
  let out = '';
  let literalFrom = 0;
  for (let found = nextReference(text); found; found = nextReference(text, found.end)) {
    out += literal(text.slice(literalFrom, found.start)) + reference(text.slice(found.start, found.end));
    literalFrom = found.end;
  }
  return literalFrom === 0 ? literal(text) : out + literal(text.slice(literalFrom));
}

/**
 * THE rule of a JWT: three base64url parts, the first a JSON header (`eyJ` is `{"`), signed or not, anywhere
 * in text (`Bearer eyJ…`, a header line, a URL's query). A text holding one holds a secret, whatever it is
 * called: the env-file check, collections, import and export ask JWT_ANYWHERE, the Redactor masks each one
 * (JWTS_IN_TEXT). Every JWT holds `eyJ` as written: the Redactor's byte test of a page looks for that.
 */
export const JWT_ANYWHERE = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;
/** Every JWT of a text (JWT_ANYWHERE, global: for replace only). */
export const JWTS_IN_TEXT = new RegExp(JWT_ANYWHERE.source, 'g');

/**
 * `scheme://user:password@`: THE rule of a URL's user info, in a URL as written or in any text. Group 1 the
 * scheme and `//`, group 2 the user, group 3 the password (absent without a `:`). A password may hold `/`,
 * `?`, `#` and `@` as a user writes them (`http://alice:Pr0xy/Secret9@proxy:3128`, which no parser reads): it
 * ends at the first `@` a host follows (no `@` before the next `/`, `?`, `#` or blank); digits after the `:`
 * and then a path, query or fragment are a port instead (`host:8080/@me`).
 */
const HOST_FOLLOWS = String.raw`(?=[^\s@/?#]*(?:[\s/?#]|$))`;
const USERINFO = String.raw`([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@:[\]]*)(?::(?!\d*[/?#])((?:[^\s@]|@(?!${HOST_FOLLOWS}))*))?@${HOST_FOLLOWS}`;
/** The user info at the start of a URL as written (see USERINFO). */
export const URL_USERINFO = new RegExp(`^${USERINFO}`);
/** Every user info in a text (see USERINFO). */
export const URL_USERINFO_IN_TEXT = new RegExp(`\\b${USERINFO}`, 'g');

/**
 * True when a value under this name must not be written to a file: a literal (not only references) under
 * a secret name, or a JWT anywhere in it under any name (`Bearer eyJ…`, a URL holding one). The rule of
 * the env-file check, collections, import and export.
 */
export function isLiteralSecret(name: string, value: string): boolean {
  if (!hasLiteral(value)) return false;
  return isSecretName(name) || JWT_ANYWHERE.test(withoutReferences(value, ' '));
}

/** Whether a body of `contentType` is a form (`name=value&…`): its fields are read by name (masked, scrubbed, searched). */
export function isFormBody(contentType: string): boolean {
  return /x-www-form-urlencoded/i.test(contentType);
}
