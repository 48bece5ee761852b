// Redaction: every request, response, log line, history entry and export passes through here before it
// is shown or written. Three layers: header values by name, secret-named fields in form and JSON bodies
// and query strings, and any known secret value (from the SecretStore) wherever it appears in text.
import { cutExcerpts } from '../text/excerpt';
import type { HttpRequest, HttpResponse } from '../http/types';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { keepsNumberText, layoutIndent, parseKeepingNumbers, rowJsonText } from '../json/numberText';
import { byteCounts, containsBytes, rarestByte } from '../text/byteSearch';
import { remembered } from '../text/remembered';
import { formSpans, hasEscapes, hostForms, MIN_SECRET_LENGTH, secretForms } from './secretForms';
import { hasAuthScheme, isCredentialHeader, isSecretName, SECRET_NAME_HINT, URL_USERINFO_IN_TEXT } from './vocabulary';

export const REDACTED = '***';


const UNICODE_ESCAPE = Buffer.from('\\u');
/**
 * The escapes that can hide a value from a byte search (the hints of secretForms.ts's views), each with the
 * values it hides as it is usually written: a JSON short escape (\/ \" \\ \b \f \n \r \t) the characters it
 * spells; percent-encoding a character outside the unreserved ones; a form's `+` a space; punycode a
 * character outside ASCII. A `\u` escape can hide any value (answered whatever the values).
 */
const HIDING_ESCAPES: readonly { readonly marker: Buffer; readonly hides: RegExp }[] = [
  { marker: Buffer.from('\\'), hides: /["\\/\u0008\f\n\r\t]/ },
  { marker: Buffer.from('%'), hides: /[^A-Za-z0-9\-_.~]/ },
  { marker: Buffer.from('+'), hides: / / },
  { marker: Buffer.from('xn--'), hides: /[^\u0000-\u007f]/ },
];

export class Redactor {
  private knownValues: string[] = [];
  /** knownValues as UTF-8 bytes, for mayRedactJsonBytes. */
  private knownBytes: Buffer[] = [];
  /** The escapes (HIDING_ESCAPES) that can hide one of the values given, `\u` always: mayRedactJsonBytes. */
  private hidingMarkers: Buffer[] = [];
  /** The values given so far, as given: one learnt again (every request of a run hands out the same token) costs a lookup. */
  private readonly given = new Set<string>();
  /** Keys as value() shows them: a page repeats the same few keys on every row. */
  private readonly shownKeys = new Map<string, string>();
  /** Keys as row() writes them (known values scrubbed): a page repeats the same few keys on every row. */
  private readonly rowKeys = new Map<string, string>();
  /** URLs as url() shows them: a run prints the same few URLs again and again. */
  private readonly shownUrls = new Map<string, string>();
  /** The computations behind those three memos, made once. */
  private readonly scrubKnownValues = (text: string): string => scrubKnownValues(text, this.knownValues);
  private readonly textOf = (text: string): string => this.text(text);
  private readonly urlNowOf = (url: string): string => this.urlNow(url);

  constructor(knownSecrets: Iterable<string> = []) {
    this.addKnownSecrets(knownSecrets);
  }

  /** Remember secret values (passwords, keys, tokens) so they are scrubbed from any text later. */
  addKnownSecrets(values: Iterable<string>): void {
    const fresh = [...values].filter((value) => !this.given.has(value));
    if (fresh.length === 0) return;
    const all = new Set(this.knownValues);
    for (const value of fresh) {
      this.given.add(value);
      // Every form the send boundary knows the secret by (secretForms.ts), in a host's lower case too: what a
      // server echoes back or a refusal names is masked in any of them, read through the same escapes.
      const forms = secretForms(value);
      for (const form of [...forms, ...hostForms(forms)]) all.add(form);
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.knownValues = [...all].filter((v) => v.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
    this.knownBytes = this.knownValues.map((v) => Buffer.from(v, 'utf8'));
    this.hidingMarkers = [UNICODE_ESCAPE, ...HIDING_ESCAPES.filter(({ hides }) => [...this.given].some((value) => hides.test(value))).map(({ marker }) => marker)];
    this.shownKeys.clear();
    this.rowKeys.clear();
    this.shownUrls.clear();
  }

  /**
   * Scrub known secret values and credential-shaped fragments: Bearer/Basic values, the password of URL
   * userinfo (`https://perm:key@host` → `https://perm:***@host`), and `name=value` pairs whose name is a
   * secret field. HttpFault messages carry `${method} ${url}` and come through here.
   */
  text(text: string): string {
    // Each rule below needs one of these in the text; most strings of a body (ids, names, dates) have none.
    if (!TEXT_RULE_HINT.test(text) && !this.knownValues.some((value) => text.includes(value)) && !(this.knownValues.length > 0 && hasEscapes(text))) return cutExcerpts(text);
    let out = scrubKnownValues(text, this.knownValues);
    // Each rule only where its hint is (a summary line's URL has '=' and rarely the others).
    if (out.includes('Bearer') || out.includes('Basic')) out = out.replace(SCHEME_VALUE, (whole, scheme: string, value: string) => (isCredential(scheme, value) ? `${scheme} ${REDACTED}` : whole));
    out = urlPasswordsMasked(out);
    if (out.includes('=')) out = maskSecretPairs(out);
    // A text marked to be shown short is cut only now, redacted whole first (text/excerpt.ts).
    return cutExcerpts(out);
  }

  /**
   * Whether serialised JSON rows, held as bytes in pieces (a streamed page), could hold something
   * `row()` would change: a secret-named key or a known secret value. False means the bytes can be
   * written as they are (the fast path of streamed pages). `keys` are the page's keys that may name a
   * secret, decoded, as the row splitter found them while it validated the page
   * (JsonRowSplitter.secretKeyCandidates: every key holding the letters of a secret word, or an
   * escape): each is asked of the same rule row() asks. The bytes are never decoded: known values are
   * searched as bytes. Escapes are how a server hides a secret value from a byte search (`sk\u005flive…`,
   * `ab\/cd`, `pk%2fAB`, `xn--…`): any `\u` escape answers true, and so does any other escape that can
   * hide a value given (HIDING_ESCAPES: a `%` when one holds a character outside the unreserved ones), so
   * such pages are parsed and redacted value by value, through the views text() reads. A value split
   * between two pieces is found at their junction.
   */
  mayRedactJsonBytes(pieces: readonly Buffer[], keys: Iterable<string>): boolean {
    for (const key of keys) if (isSecretKey(key)) return true;
    const known = this.knownBytes;
    if (known.length === 0) return false;
    const markers = this.hidingMarkers;
    const longest = Math.max(...markers.map((m) => m.length), ...known.map((v) => v.length));
    // Each value is searched for by its byte that is rarest in these rows (a sample of them), so the
    // search runs at memchr speed over the places that byte occurs (containsBytes).
    const counts = byteCounts(pieces);
    const probes = known.map((value) => rarestByte(value, counts));
    const mayHide = (bytes: Buffer): boolean => markers.some((marker) => bytes.includes(marker)) || known.some((value, i) => containsBytes(bytes, value, probes[i]!));
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (mayHide(piece)) return true;
      const next = pieces[i + 1];
      if (next && mayHide(Buffer.concat([piece.subarray(-(longest - 1)), next.subarray(0, longest - 1)]))) return true;
    }
    return false;
  }

  /**
   * A JSON value (a result row) as it may be shown or written: secret-named fields' values become `***`
   * and known secret values are scrubbed from strings. Never modifies `row`; copy-on-write, so parts
   * that needed no redaction are shared with the input, and a row with nothing to redact is returned
   * as is (no allocation: rows are redacted by the hundred thousand). Treat the result as read-only.
   */
  row(row: unknown): unknown {
    try {
      const knownValues = this.knownValues;
      const shortest = knownValues[knownValues.length - 1];
      // Keys too: a server can echo a token as a field name, and the row is written as it is returned.
      const rowKey = shortest === undefined ? sameKey : (key: string): string => (key.length < shortest.length ? key : this.rowKey(key));
      return redactTree(row, (text) => (shortest === undefined || text.length < shortest.length ? text : scrubKnownValues(text, knownValues)), rowKey);
    } catch (error) {
      // Recursion is the fast path for real rows; one nested past the stack gets words, not a RangeError.
      if (error instanceof RangeError) throw new Error(`a result row ${tooDeepText()}`);
      throw error;
    }
  }

  /**
   * A parsed JSON body (or any part of one) as the results panel may show it: secret-named fields masked as
   * in row(), and every string (keys included) passed through text(), so a value holding a known secret,
   * a Bearer/Basic credential, a URL password or a `token=…` pair is scrubbed exactly as the text of the
   * body would be. Copy-on-write like row(): the panel redacts the rows it shows, when it shows them.
   */
  value(value: unknown): unknown {
    try {
      return redactTree(value, (text) => this.text(text), (key) => this.shownKey(key));
    } catch (error) {
      if (error instanceof RangeError) throw new Error(`a result row ${tooDeepText()}`);
      throw error;
    }
  }

  /** A row's key with known secret values scrubbed (row()). */
  private rowKey(key: string): string {
    return remembered(this.rowKeys, key, SECRET_KEY_CACHE_LIMIT, this.scrubKnownValues);
  }

  private shownKey(key: string): string {
    return remembered(this.shownKeys, key, SECRET_KEY_CACHE_LIMIT, this.textOf);
  }

  headerValue(name: string, value: string): string {
    if (!isCredentialHeader(name)) return this.text(value);
    if (hasAuthScheme(name)) {
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
      return scheme ? `${scheme} ${REDACTED}` : REDACTED;
    }
    return REDACTED;
  }

  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = this.headerValue(name, value);
    return out;
  }

  url(url: string): string {
    return remembered(this.shownUrls, url, URL_CACHE_LIMIT, this.urlNowOf);
  }

  private urlNow(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return this.text(url);
    }
    if (parsed.password) parsed.password = REDACTED;
    for (const key of [...parsed.searchParams.keys()]) {
      if (isSecretName(key)) parsed.searchParams.set(key, REDACTED);
    }
    return this.text(parsed.toString().replace(/%2A%2A%2A/g, REDACTED));
  }

  /** Bodies: JSON and form bodies lose their secret-named fields; any other text only its known secrets. */
  body(body: string, contentType = ''): string {
    const trimmed = body.trimStart();
    // A body nested deeper than the product reads is redacted as text (the walk below would overflow).
    if ((/json/i.test(contentType) || trimmed.startsWith('{') || trimmed.startsWith('[')) && !jsonTextTooDeep(body)) {
      try {
        // Numbers kept as the server wrote them (12345678901234567890, 1.10): a double would change their text.
        // Secret-named fields by the rows' rule (redactTree: a "__proto__" key stays a field); then the text pass.
        const parsed = parseKeepingNumbers(body);
        const redacted = redactTree(parsed, sameKey, sameKey);
        keepsNumberText(parsed, redacted);
        return this.text(rowJsonText(redacted, layoutIndent(body)) ?? body);
      } catch {
        // Not JSON after all: fall through to text redaction.
      }
    }
    if (isFormBody(contentType)) {
      const form = new URLSearchParams(body);
      for (const key of [...form.keys()]) if (isSecretName(key)) form.set(key, REDACTED);
      return this.text(form.toString().replace(/%2A%2A%2A/g, REDACTED));
    }
    return this.text(body);
  }

  request(request: HttpRequest): HttpRequest {
    const contentType = headerOf(request.headers, 'content-type');
    return {
      method: request.method,
      url: this.url(request.url),
      headers: this.headers(request.headers),
      ...(request.body === undefined ? {} : { body: this.body(request.body, contentType) }),
    };
  }

  response(response: HttpResponse): HttpResponse {
    return {
      ...response,
      headers: this.headers(response.headers),
      bodyText: this.body(response.bodyText, headerOf(response.headers, 'content-type')),
    };
  }
}

/** Whether a body of `contentType` is a form (`name=value&…`), whose secret-named fields Redactor.body masks. */
export function isFormBody(contentType: string): boolean {
  return /x-www-form-urlencoded/i.test(contentType);
}

/** What the patterns of text() need: a Bearer/Basic scheme word, a URL userinfo's `@`, a pair's `=`. */
const TEXT_RULE_HINT = /Bearer|Basic|@|=/;

/** `Bearer …` / `Basic …` in free text: the scheme and what may be its credential. */
const SCHEME_VALUE = /\b(Bearer|Basic)\s+(?!\*\*\*)([A-Za-z0-9._~+/=-]{4,})/g;

/**
 * Whether the word after Bearer/Basic in free text is a credential, not the product's own words ("Set Basic
 * Credentials", "Paste Bearer Token"): a value with a digit or . _ ~ + / = -, or of 16 characters or more,
 * is a token; a shorter word of letters only is a word, unless after Basic it decodes (base64) to
 * user:password. A secret the run knows is masked whatever it looks like (the known-values rule above).
 */
function isCredential(scheme: string, value: string): boolean {
  if (!/^[A-Za-z]+$/.test(value) || value.length >= 16) return true;
  return scheme === 'Basic' && Buffer.from(value, 'base64').toString('latin1').includes(':');
}

/** `text` with the password of every `scheme://user:password@` in it masked: THE rule, for any text shown. */
export function urlPasswordsMasked(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_USERINFO_IN_TEXT, (whole, scheme: string, user: string, password: string | undefined) =>
    (password === undefined || password === '' || password === REDACTED ? whole : `${scheme}${user}:${REDACTED}@`));
}

/** `name=value` in a query, form or log line (group 2 the name, masked when isSecretName says so). */
const NAME_VALUE_PAIR = /((?:^|[?&\s"',;])([A-Za-z0-9_.-]+)=)([^&\s"',;]+)/g;

function maskSecretPairs(text: string): string {
  // A pair's name is ASCII letters, digits and _.- (NAME_VALUE_PAIR), which isSecretName accepts only when
  // it holds a word of SECRET_NAME_HINT: a text without one has no secret pair (a summary line's URL has none).
  if (!SECRET_NAME_HINT.test(text)) return text;
  return text.replace(NAME_VALUE_PAIR, (whole, head: string, name: string) => (isSecretName(name) ? `${head}${REDACTED}` : whole));
}

/**
 * `text` with every known value masked, in every view of it the send boundary reads (secretForms.ts): an
 * escaped one (`%2f`, `\/`, `xn--…`) is masked escapes and all. Without an escape the text is its only view.
 */
function scrubKnownValues(text: string, knownValues: readonly string[]): string {
  if (knownValues.length > 0 && hasEscapes(text)) {
    const spans = formSpans(text, knownValues);
    if (spans.length === 0) return text;
    let out = '';
    let last = 0;
    for (const [start, end] of spans) {
      out += `${text.slice(last, start)}${REDACTED}`;
      last = end;
    }
    return out + text.slice(last);
  }
  let out = text;
  for (const value of knownValues) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}

/** isSecretName, remembered per key: a page repeats the same few keys on every row. */
const secretKeyCache = new Map<string, boolean>();
const SECRET_KEY_CACHE_LIMIT = 10_000;
/** URLs remembered by one Redactor (a walk's pages each have their own: kept small). */
const URL_CACHE_LIMIT = 1_000;

function isSecretKey(key: string): boolean {
  return remembered(secretKeyCache, key, SECRET_KEY_CACHE_LIMIT, isSecretName);
}

const sameKey = (key: string): string => key;

/**
 * The one copy-on-write walk of row() and value(): a secret-named field's value masked, every other
 * string through `scrub`, every key through `showKey`. Returns `value` itself when nothing inside changed.
 */
function redactTree(value: unknown, scrub: (text: string) => string, showKey: (key: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const inner: unknown = value[i];
      const redacted = redactTree(inner, scrub, showKey);
      if (redacted !== inner) (copy ??= value.slice())[i] = redacted;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const inner = record[key];
    const redacted = isSecretKey(key) ? maskedField(inner) : redactTree(inner, scrub, showKey);
    const shownKey = showKey(key);
    if (redacted === inner && shownKey === key) continue;
    copy ??= { ...record };
    if (shownKey !== key) delete copy[key];
    // defineProperty, not assignment: a JSON key "__proto__" is an own property and must stay one.
    Object.defineProperty(copy, shownKey, { value: redacted, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

/** A secret field's value as shown: masked unless empty (null, '' and an existing mask say nothing). */
function maskedField(value: unknown): unknown {
  return value === null || value === undefined || value === '' || value === REDACTED ? value : REDACTED;
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return '';
}
