// What of a response is a credential a later request may carry: a credential header's value (and the
// credential after its scheme), a JWT anywhere in it (a string of its JSON, or the whole body), and a
// value that looks like a credential (CREDENTIAL_SHAPE: one word of 16 characters or more) held by a
// secret-named field of a JSON or form body itself (`access_token`, `refresh_token`, `apiKey`), or as an
// item of an array it holds. Not what a field inside a secret-named object holds (`session.user`), nor
// a number (`tokens_remaining`), nor words (`secretQuestion`): those stay masked where the response shows
// (the Redactor's own rule) but are no secret of the run. A request that reads one
// (`{{login.response.body.$.access_token}}`, from a header of any name, the URL, the body or a file
// variable) carries a secret of the response's origin: prepareRequest hands these values out (ReadSecret,
// bindings.ts), so every Redactor masks them and no hop takes them to another origin.
import { isJsonObject } from '../json/numberText';
import { AUTH_SCHEME, isCredentialHeader, isFormBody, isSecretName, JWTS_IN_TEXT } from './vocabulary';

/** The JWTs a text holds (the vocabulary's one rule of a JWT). */
const jwtsIn = (text: string): string[] => text.match(JWTS_IN_TEXT) ?? [];

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
    else values.push(...jwtsIn(value));
  }
  return values;
}

function bodySecrets(bodyText: string, contentType: string): string[] {
  const trimmed = bodyText.trim();
  if (isFormBody(contentType)) {
    return [...new URLSearchParams(trimmed)].filter(([name, value]) => isSecretName(name) && CREDENTIAL_SHAPE.test(value)).map(([, value]) => value);
  }
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return jwtsIn(trimmed);
  let body: unknown;
  try {
    body = JSON.parse(trimmed) as unknown;
  } catch {
    return [];
  }
  return jsonSecrets(body);
}

/** One word (no blank) of 16 characters or more: what a token, a key or a session id looks like; an id, a count or a phrase does not. */
const CREDENTIAL_SHAPE = /^\S{16,}$/;

/** A secret-named field's value, or an item of an array it holds, that looks like a credential; and every JWT. Walked with a list (a body may nest deep). */
function jsonSecrets(body: unknown): string[] {
  const values: string[] = [];
  const pending: { value: unknown; secret: boolean }[] = [{ value: body, secret: false }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, secret } = next;
    if (typeof value === 'string') {
      if (secret && CREDENTIAL_SHAPE.test(value)) values.push(value);
      else values.push(...jwtsIn(value));
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push({ value: item, secret });
    } else if (isJsonObject(value)) {
      for (const [key, inner] of Object.entries(value)) pending.push({ value: inner, secret: isSecretName(key) });
    }
  }
  return values;
}

function contentTypeOf(headers: Readonly<Record<string, string>>): string {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type') return value;
  return '';
}
