// Lenient decoders for text read out of a file or a request before a secret check: a malformed escape
// gives the raw text back (the check then sees what was written) instead of throwing.

/** The content of a JSON string literal, given without its quotes (`a\"b` → `a"b`). */
export function jsonStringContent(inner: string): string {
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return inner;
  }
}

/** A query or form value as sent (`a+b%21` → `a b!`). */
export function decodeFormValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
