// How a secret value can travel inside a request's text, written once for the send boundary (bindings.ts).
// Two sides meet: the FORMS a secret takes when it is encoded into a text (as it is; percent-encoded as
// encodeURIComponent, a form and the URL serializer write it; JSON-escaped; base64, standard or
// URL-safe, at each of the three byte alignments it can have inside a longer encoded text, so that a token
// inside `base64(user:token)` or a base64 JSON document is found), and the VIEWS of a text once its usual
// escapes are undone (percent-encoding, a form's `+`, JSON string escapes, each again inside the other, to a
// small depth). A secret is in a text when one of its forms is in one of the text's views: an encoding
// nobody listed is held as long as it is one of these applied in any order, at any offset.

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
  const texts = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1), ...urlSerializerForms(value)]);
  const forms = new Set<string>(texts);
  for (const text of texts) for (const form of base64Forms(text)) forms.add(form);
  return [...forms].sort((a, b) => b.length - a.length);
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

/** The text and what it reads as once its percent, form and JSON escapes are undone (in any order, a few deep). */
export function textViews(text: string): readonly string[] {
  const views = [text];
  let fresh = [text];
  for (let round = 0; round < DECODE_ROUNDS && fresh.length > 0 && views.length < MAX_VIEWS; round++) {
    const next: string[] = [];
    for (const view of fresh) {
      for (const decoded of decodings(view)) {
        if (views.includes(decoded) || views.length + next.length >= MAX_VIEWS) continue;
        next.push(decoded);
      }
    }
    views.push(...next);
    fresh = next;
  }
  return views;
}

/** The one-step decodings of a text that change it. */
function decodings(text: string): string[] {
  const out: string[] = [];
  if (text.includes('%')) out.push(percentDecoded(text));
  if (text.includes('+')) out.push(percentDecoded(text.replace(/\+/g, ' ')));
  if (text.includes('\\')) out.push(jsonUnescaped(text));
  return out.filter((decoded) => decoded !== text);
}

/** `%XX` sequences decoded as UTF-8 bytes, wherever they are; a stray `%` stays (decodeURIComponent would throw). */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    const bytes = Buffer.from(run.replace(/%/g, ''), 'hex');
    return bytes.toString('utf8');
  });
}

const JSON_SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** JSON string escapes (`\u0073`, `\/`, `\"`, …) undone wherever they are, the text around them kept. */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_whole, escape: string) =>
    escape.length === 5 ? String.fromCharCode(parseInt(escape.slice(1), 16)) : (JSON_SHORT_ESCAPES[escape] ?? escape));
}

/** True when one of `forms` is in one of the views of `text`. */
export function carriesForm(views: readonly string[], forms: readonly string[]): boolean {
  for (const view of views) for (const form of forms) if (view.includes(form)) return true;
  return false;
}
