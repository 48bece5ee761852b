// The panel's last line of defence against showing a secret. The host redacts request headers before it
// builds a view model; the builder asserts that it did (a programming error, so it throws, naming the header
// but never its value). Cookies, secret-looking query parameters and secret-named fields of a body are masked
// here because they can arrive from the server itself. The marker and the rules are the shared redactor's.
import type { HeaderLine } from '../../protocol/webviewMessages';
import { REDACTED, Redactor } from '../secrets/redact';
import { isCredentialHeader, isSecretName } from '../secrets/vocabulary';

export { REDACTED };

/** The shared redactor without known values: the vocabulary's names (the host scrubs known values). */
const nameRedactor = new Redactor();

/** Headers the panel masks itself: the server sets them. */
const SESSION_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);
/** A header whose value the host must have redacted before the panel sees it: the one vocabulary's, less the server's session headers. */
function mustArriveRedacted(name: string): boolean {
  return isCredentialHeader(name) && !SESSION_HEADERS.has(name.trim().toLowerCase());
}

export class UnredactedSecretError extends Error {
  constructor(readonly headerName: string) {
    super(`the ${headerName} header reached the results view model unredacted`);
    this.name = 'UnredactedSecretError';
  }
}

/** A redacted value: empty, or a mask (optionally after the auth scheme: "Basic [redacted]", "Bearer ****"). */
export function isRedactedValue(value: string): boolean {
  return /^\s*(?:[A-Za-z-]+\s+)?(?:\[redacted\]|<redacted>|redacted|\*{3,}|•{3,}|…)?\s*$/i.test(value);
}

export function assertHeadersRedacted(headers: readonly HeaderLine[]): void {
  for (const h of headers) {
    if (mustArriveRedacted(h.name) && !isRedactedValue(h.value)) throw new UnredactedSecretError(h.name);
  }
}

export function headerLines(headers: Readonly<Record<string, string>>): HeaderLine[] {
  return Object.entries(headers).map(([name, value]) => ({
    name,
    value: SESSION_HEADERS.has(name.toLowerCase()) ? REDACTED : value,
  }));
}

/** Secret query parameters and user:password in the URL, by the shared redactor's rules. */
export function redactUrl(url: string): string {
  return nameRedactor.url(url);
}

/** A JSON key and its string value (group 1 the key as written), found in text that need not parse. */
const KEY_AND_STRING_VALUE = /"((?:[^"\\]|\\.){1,200})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/**
 * Masks the string values of secret-named keys (the shared vocabulary's isSecretName) in a body the panel
 * shows as text: not JSON, or JSON that does not parse. A parsed body goes through redactParsedBody.
 */
export function redactBodyText(text: string, contentType = ''): string {
  const masked = text.replace(KEY_AND_STRING_VALUE, (whole, key: string, colon: string) =>
    (isSecretName(decodedKey(key)) ? `"${key}"${colon}"${REDACTED}"` : whole));
  return nameRedactor.body(masked, contentType);
}

/** A parsed body with every secret-named field masked, at any depth (Redactor.row: unchanged parts are shared). */
export function redactParsedBody(value: unknown): unknown {
  return nameRedactor.row(value);
}

function decodedKey(key: string): string {
  try {
    return JSON.parse(`"${key}"`) as string;
  } catch {
    return key;
  }
}
