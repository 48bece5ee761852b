// Redaction: every request, response, log line, history entry and export passes through here before it
// is shown or written. Three layers: header values by name, secret-named fields in form and JSON bodies
// and query strings, and any known secret value (from the SecretStore) wherever it appears in text.
import { CUT_MARK, cutExcerpts } from '../text/excerpt';
import type { HttpRequest, HttpResponse } from '../http/types';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import { keepsNumberText, layoutIndent, NumberText, parseKeepingNumbers, rowJsonText } from '../json/numberText';
import { remembered } from '../text/remembered';
import { formSpans, hasEscapes, hostForms, MIN_SECRET_LENGTH, secretForms } from './secretForms';
import { JsonBytesTest } from './jsonBytesTest';
import { mayHoldSecretPairText, SHAPE_WORDS } from './shapeBytes';
import { hasAuthScheme, isCredentialHeader, isFormBody, isSecretName, JWTS_IN_TEXT, SECRET_NAME_HINT, URL_USERINFO_IN_TEXT } from './vocabulary';

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
  /** The length of the shortest of knownValues (none: past any text). */
  private shortestKnown = Infinity;
  /** The known values a number's text can hold (made of a number's characters only): row() asks numbers of these. */
  private numericValues: string[] = [];
  /** The escapes (HIDING_ESCAPES) that can hide one of the values given, `\u` always: mayRedactJsonBytes. */
  private hidingMarkers: Buffer[] = [UNICODE_ESCAPE];
  /** The values given so far, as given: one learnt again (every request of a run hands out the same token) costs a lookup. */
  private readonly given = new Set<string>();
  /** Keys as value() shows them: a page repeats the same few keys on every row. */
  private readonly shownKeys = new Map<string, string>();
  /** URLs as url() shows them: a run prints the same few URLs again and again. */
  private readonly shownUrls = new Map<string, string>();
  /** The computations behind those memos, made once. */
  private readonly textOf = (text: string): string => this.text(text);
  private readonly urlNowOf = (url: string): string => this.urlNow(url);
  /** What row() asks of a row's strings, keys and numbers. */
  private readonly treeRules: TreeRules = {
    text: this.textOf,
    key: (key) => this.shownKey(key),
    number: (n) => this.numericValues.length > 0 && holdsOneOf(typeof n === 'number' ? String(n) : n.text, this.numericValues),
  };

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
    this.shortestKnown = this.knownValues.at(-1)?.length ?? Infinity;
    this.numericValues = this.knownValues.filter((v) => /^[\d.eE+-]+$/.test(v));
    this.hidingMarkers = [UNICODE_ESCAPE, ...HIDING_ESCAPES.filter(({ hides }) => [...this.given].some((value) => hides.test(value))).map(({ marker }) => marker)];
    this.shownKeys.clear();
    this.shownUrls.clear();
  }

  /**
   * Scrub known secret values and credential-shaped fragments: Bearer/Basic values, the password of URL
   * userinfo (`https://perm:key@host` → `https://perm:***@host`), and `name=value` pairs whose name is a
   * secret field. HttpFault messages carry `${method} ${url}` and come through here.
   */
  text(text: string): string {
    // Each rule only where the text holds what it needs: most strings of a body (ids, names, dates) hold
    // none, and row() asks this of every string of every row. Shorter than the shortest value searched for
    // (each a few deep views of the text are as long at most), it holds none.
    const known = this.knownValues;
    const holdsKnown = text.length >= this.shortestKnown && (known.some((value) => text.includes(value)) || hasEscapes(text));
    // What masking a known value leaves (`***`) adds no mark: the marks of the text are the marks of every step.
    const marks = shapeMarks(text);
    if (!holdsKnown && marks === 0) return text;
    let out = holdsKnown ? scrubKnownValues(text, known) : text;
    if (marks & SCHEME) out = out.replace(SCHEME_VALUE, (whole, scheme: string, value: string) => (isCredential(scheme, value) ? `${scheme} ${REDACTED}` : whole));
    // A JWT is a secret under any name and in any text (vocabulary.ts, JWT_ANYWHERE).
    if (marks & JWT) out = out.replace(JWTS_IN_TEXT, REDACTED);
    if (marks & URL_PASSWORD) out = urlPasswordsMasked(out);
    if (marks & PAIR) out = maskSecretPairs(out);
    // A text marked to be shown short is cut only now, redacted whole first (text/excerpt.ts).
    return cutExcerpts(out);
  }

  /**
   * Whether serialised JSON rows, held as bytes in pieces (a streamed page), could hold something
   * `row()` would change: a secret-named key, a known secret value, or a shape text() masks (a JWT, a
   * Bearer/Basic value, a URL's password, a secret-named `name=value` pair: shapeBytes.ts, which finds
   * each by bytes it cannot be written without). False means the bytes can be
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
    const test = this.jsonBytesTest(keys);
    return test === true || pieces.some((piece) => test.push(piece));
  }

  /** mayRedactJsonBytes for rows read piece by piece (JsonBytesTest.push); true when `keys` say yes already. */
  jsonBytesTest(keys: Iterable<string>): JsonBytesTest | true {
    for (const key of keys) if (isSecretKey(key)) return true;
    // The words of the shapes are searched as known values are (they are never split by an escape but `\u`).
    return new JsonBytesTest([...this.knownBytes, ...SHAPE_WORDS], this.hidingMarkers);
  }

  /**
   * A JSON value (a result row, a parsed body or a part of one) as it may be written (--out, an export) or
   * shown (the panel): ONE rule for both. Secret-named fields' values become `***`; every string, keys
   * included, passes text() (known values, Bearer/Basic values, URL passwords, `token=…` pairs, JWTs), so a
   * value is scrubbed exactly as the text of the body would be; a number holding a known value (a numeric
   * key echoed as a JSON number, a NumberText as the server wrote it) becomes `***`. Never modifies `row`;
   * copy-on-write, so parts that needed no redaction are shared with the input, and a row with nothing to
   * redact is returned as is (no allocation: rows are redacted by the hundred thousand). Treat the result
   * as read-only.
   */
  row(row: unknown): unknown {
    try {
      return redactTree(row, this.treeRules);
    } catch (error) {
      // Recursion is the fast path for real rows; one nested past the stack gets words, not a RangeError.
      if (error instanceof RangeError) throw new Error(`a result row ${tooDeepText()}`);
      throw error;
    }
  }

  /** row(), by the name the panel asks it (a parsed body or a part of one): the same rule. */
  value(value: unknown): unknown {
    return this.row(value);
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
        const redacted = redactTree(parsed, NAMES_ONLY);
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

/** The shapes text() masks (and the cut it makes), each by a character it cannot be written without. */
const SCHEME = 1, JWT = 2, URL_PASSWORD = 4, PAIR = 8;

/**
 * Which shapes a text may hold, each told by a character it cannot be written without: the B of Bearer
 * and Basic, the J of a JWT's `eyJ`, a URL password's `@`, a pair's `=`; a cut mark asks every rule
 * (cutExcerpts runs last). Each rule runs only where its character is: row() asks this of every string
 * of every row (a one-character search is the fastest test of a string there is).
 */
function shapeMarks(text: string): number {
  if (text.includes(CUT_MARK)) return SCHEME | JWT | URL_PASSWORD | PAIR;
  return (text.includes('B') ? SCHEME : 0) | (text.includes('J') ? JWT : 0) | (text.includes('@') ? URL_PASSWORD : 0) | (text.includes('=') ? PAIR : 0);
}

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
  if (!text.includes('@') || !text.includes('://')) return text;
  return text.replace(URL_USERINFO_IN_TEXT, (whole, scheme: string, user: string, password: string | undefined) =>
    (password === undefined || password === '' || password === REDACTED ? whole : `${scheme}${user}:${REDACTED}@`));
}

/** `name=value` in a query, form or log line (group 2 the name, masked when isSecretName says so). */
const NAME_VALUE_PAIR = /((?:^|[?&\s"',;])([A-Za-z0-9_.-]+)=)([^&\s"',;]+)/g;

function maskSecretPairs(text: string): string {
  // A pair's name is ASCII letters, digits and _.- (NAME_VALUE_PAIR), which isSecretName accepts only when
  // it holds a word of SECRET_NAME_HINT: a text without one before an `=` has no secret pair (a summary
  // line's URL has none).
  if (!mayHoldSecretPairText(text) || !SECRET_NAME_HINT.test(text)) return text;
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

/** What the walk asks: a string as shown, a key as shown, whether a number's text must be masked. */
interface TreeRules {
  readonly text: (text: string) => string;
  readonly key: (key: string) => string;
  readonly number: (n: number | NumberText) => boolean;
}

const same = (text: string): string => text;
/** Secret-named fields only (body(): its text pass does the rest). */
const NAMES_ONLY: TreeRules = { text: same, key: same, number: () => false };

/**
 * The one copy-on-write walk of row(): a secret-named field's value masked, every other string through
 * `rules.text`, every key through `rules.key`, a number (or a NumberText: its text as written) masked
 * when `rules.number` says so. Returns `value` itself when nothing inside changed.
 */
function redactTree(value: unknown, rules: TreeRules): unknown {
  if (typeof value === 'string') return rules.text(value);
  if (typeof value === 'number' || value instanceof NumberText) return rules.number(value) ? REDACTED : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const inner: unknown = value[i];
      const redacted = redactTree(inner, rules);
      if (redacted !== inner) (copy ??= value.slice())[i] = redacted;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const inner = record[key];
    const redacted = isSecretKey(key) ? maskedField(inner) : redactTree(inner, rules);
    const shownKey = rules.key(key);
    if (redacted === inner && shownKey === key) continue;
    copy ??= { ...record };
    if (shownKey !== key) delete copy[key];
    // defineProperty, not assignment: a JSON key "__proto__" is an own property and must stay one.
    Object.defineProperty(copy, shownKey, { value: redacted, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

const holdsOneOf = (text: string, values: readonly string[]): boolean => values.some((value) => text.includes(value));

/** A secret field's value as shown: masked unless empty (null, '' and an existing mask say nothing). */
function maskedField(value: unknown): unknown {
  return value === null || value === undefined || value === '' || value === REDACTED ? value : REDACTED;
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return '';
}
