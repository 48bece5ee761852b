// What of a response is a secret where it came from, in the vocabulary's words: what the Redactor masks
// in it (a credential header's value, and the credential after its scheme; every value under a
// secret-named field of a JSON or form body, at any depth: `access_token`, `password`, `apiKey`) and a
// JWT anywhere in it (a string of its JSON, or the whole body). A request that reads that response
// (`{{login.response.body.$.access_token}}`, from a header of any name, the URL, the body or a file
// variable) carries a secret of the response's origin: prepareRequest hands these values out bound to
// that origin (bindings.ts, ReadSecret), so the send boundary and the cross-origin rule keep them there
// and every Redactor masks them, whatever part of a later request carries them.
import { AUTH_SCHEME, isCredentialHeader, isSecretName, looksLikeJwt } from './vocabulary';

/** The parts of a response read here (a NamedResponse). */
interface ResponseText {
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
}

/** Made once per response: every request of a run that reads it asks again. */
const found = new WeakMap<ResponseText, readonly string[]>();

/** The secret values of `response` (see the top of this file), each once. */
export function responseSecrets(response: ResponseText): readonly string[] {
  let values = found.get(response);
  if (!values) {
    values = Object.freeze([...new Set([...headerSecrets(response.headers), ...bodySecrets(response.bodyText, contentTypeOf(response.headers))])]);
    found.set(response, values);
  }
  return values;
}

function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (isCredentialHeader(name)) values.push(value, AUTH_SCHEME.exec(value.trim())?.[2] ?? value);
    else if (looksLikeJwt(value)) values.push(value);
  }
  return values;
}

function bodySecrets(bodyText: string, contentType: string): string[] {
  const trimmed = bodyText.trim();
  if (looksLikeJwt(trimmed)) return [trimmed];
  if (/x-www-form-urlencoded/i.test(contentType)) {
    return [...new URLSearchParams(trimmed)].filter(([name]) => isSecretName(name)).map(([, value]) => value);
  }
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return [];
  let body: unknown;
  try {
    body = JSON.parse(trimmed) as unknown;
  } catch {
    return [];
  }
  return jsonSecrets(body);
}

/** Every value under a secret-named key, and every JWT: walked with a list, not recursion (a body may nest deep). */
function jsonSecrets(body: unknown): string[] {
  const values: string[] = [];
  const pending: { value: unknown; secret: boolean }[] = [{ value: body, secret: false }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, secret } = next;
    if (typeof value === 'string') {
      if (secret || looksLikeJwt(value)) values.push(value);
    } else if (typeof value === 'number') {
      if (secret) values.push(String(value));
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, secret });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) pending.push({ value: inner, secret: secret || isSecretName(key) });
    }
  }
  return values;
}

function contentTypeOf(headers: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type') return value;
  return '';
}
