// How a secret value can travel inside a text, written once for the send boundary (bindings.ts) and the
// Redactor (redact.ts), so that what one sees the other masks. Two sides meet: the FORMS a secret takes when
// it is encoded into a text (as it is, and trimmed, as the end of a request line cuts it; percent-encoded as
// encodeURIComponent, a form and the URL serializer write it; JSON-escaped; base64, standard or URL-safe,
// at each of the three byte alignments it can have inside a longer encoded text, so that a token inside
// `base64(user:token)` or a base64 JSON document is found; in lower case where a host name holds it), and
// the VIEWS of a text once its usual escapes are undone (percent-encoding in either case of hex, a form's
// `+`, JSON string escapes, a host label's punycode, each again inside the other, to a small depth). A
// secret is in a text when one of its forms is in one of the text's views: an encoding nobody listed is
// held as long as it is one of these applied in any order, at any offset. The guard asks whether
// (carriesForm); the Redactor asks where (formSpans: each view remembers where its characters came from).

import { domainToUnicode } from 'node:url';

/** Values shorter than this are not searched for: "ab" would be found everywhere (as the Redactor decides). */
export const MIN_SECRET_LENGTH = 4;

/** A base64 form shorter than this is too unspecific to search for (it would match unrelated text). */
const MIN_BASE64_FORM = 8;

/**
 * The texts to search for to find `value` (longest first); none when it is too short to search for: the
 * value, and the value as percent-, form- and JSON-escaped (so that base64 OF an escaped value is found too),
 * each also in base64 (standard and URL-safe) at each of the three byte alignments it can have inside a
 * longer encoded text. Escapes applied AFTER base64 are undone on the text's side (textViews).
 */
export function secretForms(value: string): readonly string[] {
  if (value.length < MIN_SECRET_LENGTH) return [];
  // Trimmed too: a value with a space at its end, written at the end of a request line, goes out without it.
  const trimmed = value.trim();
  const texts = new Set(trimmed !== value && trimmed.length >= MIN_SECRET_LENGTH ? [value, trimmed] : [value]);
  for (const text of [...texts]) {
    for (const form of [encodeURIComponent(text), new URLSearchParams({ v: text }).toString().slice(2), JSON.stringify(text).slice(1, -1), ...urlSerializerForms(text)]) texts.add(form);
  }
  const forms = new Set<string>(texts);
  for (const text of texts) for (const form of base64Forms(text)) forms.add(form);
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * `forms` as a host name spells them: in lower case (a host name has no case; the URL parser lowercases it,
 * and a punycode label decodes to lower case). The send boundary searches a host for these; the Redactor,
 * which cannot tell a host from other text, masks them anywhere.
 */
export function hostForms(forms: readonly string[]): readonly string[] {
  return forms.map((form) => form.toLowerCase());
}

/**
 * The value as the WHATWG URL serializer writes it into a URL's query and path (a request's URL is parsed
 * before it is shown: `open sesame/42` reads `open%20sesame/42`, which neither encodeURIComponent nor the
 * form writes). Each after a leading `x`, so that the setters see no `?` or `/` of their own to strip.
 */
function urlSerializerForms(value: string): string[] {
  const url = new URL('http://h/');
  url.search = `x${value}`;
  const query = url.search.slice(2);
  url.pathname = `/x${value}`;
  return [query, url.pathname.slice(2)];
}

/** `text` in base64 as it reads inside any longer base64 text, standard and URL-safe. */
function base64Forms(text: string): string[] {
  const forms: string[] = [];
  const bytes = Buffer.from(text, 'utf8');
  // Each alignment: the text preceded by k bytes of something else; only the base64 characters that its
  // own bytes decide are kept (the first group is shared with what precedes, the last with what follows).
  for (let k = 0; k < 3; k++) {
    const skip = (3 - k) % 3;
    const own = bytes.subarray(skip);
    const whole = Math.floor(own.length / 3) * 3;
    if (whole === 0) continue;
    const form = own.subarray(0, whole).toString('base64');
    if (form.length >= MIN_BASE64_FORM) forms.push(form, toUrlSafe(form));
  }
  // A short text alone, padded: its stable parts above are too short to search for.
  const alone = bytes.toString('base64');
  if (alone.length >= MIN_BASE64_FORM) forms.push(alone, toUrlSafe(alone).replace(/=+$/, ''));
  return forms;
}

function toUrlSafe(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_');
}

/** How many rounds of decoding a text gets (a value percent-encoded inside a JSON string inside a form is three). */
const DECODE_ROUNDS = 3;
/** At most this many views of one text: each round can only double them, this stops a crafted text early. */
const MAX_VIEWS = 12;

/**
 * One way a text's characters are written otherwise: each match of `pattern` reads as `decode(match)`, the
 * text around it unchanged; applied only when `hint` is in the text.
 */
interface Decoding {
  readonly hint: RegExp;
  readonly pattern: RegExp;
  readonly decode: (match: string) => string;
}

/** `%XX` sequences as UTF-8 bytes, in either case of hex (a stray `%` stays: decodeURIComponent would throw). */
const percentDecoded = (run: string): string => run === '+' ? ' ' : Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8');

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The escapes a text is read through: percent-encoding (any hex case), a form's `+` with it, JSON string
 * escapes (`\u0073`, `\/`, `\"`), and a host label's punycode (`xn--…`, as the URL parser writes a label
 * outside ASCII; it decodes to lower case, as a host name reads).
 */
const DECODINGS: readonly Decoding[] = [
  { hint: /%/, pattern: /(?:%[0-9a-fA-F]{2})+/g, decode: percentDecoded },
  { hint: /\+/, pattern: /\+|(?:%[0-9a-fA-F]{2})+/g, decode: percentDecoded },
  {
    hint: /\\/,
    pattern: /\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/g,
    decode: (escape) => escape.length === 6 ? String.fromCharCode(parseInt(escape.slice(2), 16)) : (JSON_SHORT_ESCAPES[escape.slice(1)] ?? escape),
  },
  { hint: /xn--/i, pattern: /\bxn--[a-z0-9-]+/gi, decode: (label) => domainToUnicode(label.toLowerCase()) || label },
];

/** Where a decoded part of a view came from: view[viewStart, viewEnd) reads text[start, end) of the view before. */
interface Decoded { readonly viewStart: number; readonly viewEnd: number; readonly start: number; readonly end: number }

/** A text as it reads once some escapes are undone, and how to find where its characters were in the text. */
interface View {
  readonly text: string;
  /** The view it was decoded from (none: the text itself), and the parts that decoding changed, in order. */
  readonly from?: View;
  readonly decoded: readonly Decoded[];
}

/** `view` decoded once more by `decoding`, or undefined when that changes nothing. */
function decodedView(view: View, decoding: Decoding): View | undefined {
  if (!decoding.hint.test(view.text)) return undefined;
  const decoded: Decoded[] = [];
  let text = '';
  let last = 0;
  for (const match of view.text.matchAll(decoding.pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const reads = decoding.decode(match[0]);
    if (reads === match[0]) continue;
    text += view.text.slice(last, start);
    decoded.push({ viewStart: text.length, viewEnd: text.length + reads.length, start, end });
    text += reads;
    last = end;
  }
  return decoded.length === 0 ? undefined : { text: text + view.text.slice(last), from: view, decoded };
}

/** The text and its views once its escapes are undone (in any order, a few deep), the text itself first. */
function viewsOf(text: string): View[] {
  const views: View[] = [{ text, decoded: [] }];
  let fresh = views;
  for (let round = 0; round < DECODE_ROUNDS && fresh.length > 0 && views.length < MAX_VIEWS; round++) {
    const next: View[] = [];
    for (const view of fresh) {
      for (const decoding of DECODINGS) {
        const decoded = decodedView(view, decoding);
        if (!decoded || views.length + next.length >= MAX_VIEWS || views.some((v) => v.text === decoded.text) || next.some((v) => v.text === decoded.text)) continue;
        next.push(decoded);
      }
    }
    views.push(...next);
    fresh = next;
  }
  return views;
}

/** The text and what it reads as once its percent, form, JSON and punycode escapes are undone (in any order, a few deep). */
export function textViews(text: string): readonly string[] {
  return viewsOf(text).map((view) => view.text);
}

/** A span [start, end) of a view as the span of the text it was decoded from, all the way back. */
function originalSpan(view: View, start: number, end: number): [number, number] {
  let at: View | undefined = view;
  let span: [number, number] = [start, end];
  while (at?.from) {
    span = [inParent(at.decoded, span[0], 'start'), inParent(at.decoded, span[1] - 1, 'end')];
    at = at.from;
  }
  return span;
}

/** Where the character at `offset` of a view was in the view before: a decoded character is its whole escape. */
function inParent(decoded: readonly Decoded[], offset: number, side: 'start' | 'end'): number {
  let lo = 0;
  let hi = decoded.length - 1;
  let before: Decoded | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (decoded[mid]!.viewStart <= offset) {
      before = decoded[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (before && offset < before.viewEnd) return side === 'start' ? before.start : before.end;
  const shifted = before ? before.end + (offset - before.viewEnd) : offset;
  return side === 'start' ? shifted : shifted + 1;
}

/**
 * The spans [start, end) of `text` that carry one of `forms` in one of its views (what carriesForm finds),
 * sorted and merged: an escaped character counts whole, so masking these leaves none of the form.
 */
export function formSpans(text: string, forms: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const view of viewsOf(text)) {
    for (const form of forms) {
      for (let at = view.text.indexOf(form); at >= 0; at = view.text.indexOf(form, at + 1)) spans.push(originalSpan(view, at, at + form.length));
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** Whether `text` has an escape that gives it a view of its own (else it reads only as itself). */
export function hasEscapes(text: string): boolean {
  return ANY_HINT.test(text);
}

/** The hints of DECODINGS in one pattern: asked of every string of every row the Redactor sees. */
const ANY_HINT = new RegExp(DECODINGS.map((decoding) => decoding.hint.source).join('|'), 'i');

/** True when one of `forms` is in one of the views of `text`. */
export function carriesForm(views: readonly string[], forms: readonly string[]): boolean {
  for (const view of views) for (const form of forms) if (view.includes(form)) return true;
  return false;
}
