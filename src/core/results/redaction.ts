// The panel's last line of defence against showing a secret. The host redacts request headers before it
// builds a view model; the builder asserts that it did (a programming error, so it throws, naming the header
// but never its value). Cookies, secret-looking query parameters and token fields of a body are masked here
// because they can arrive from the server itself. The marker and the rules are the shared redactor's.
import type { HeaderLine } from '../../protocol/webviewMessages';
import { REDACTED, Redactor } from '../secrets/redact';
import { CREDENTIAL_HEADER_NAMES } from '../secrets/vocabulary';

export { REDACTED };

const urlRedactor = new Redactor();

/** Headers the panel masks itself: the server sets them. */
const SESSION_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);
/** Headers whose value the host must have redacted before the panel sees it: the one vocabulary's, less the server's session headers. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([...CREDENTIAL_HEADER_NAMES].filter((name) => !SESSION_HEADERS.has(name)));

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
    if (CREDENTIAL_HEADERS.has(h.name.toLowerCase()) && !isRedactedValue(h.value)) throw new UnredactedSecretError(h.name);
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
  return urlRedactor.url(url);
}

// The shared redactor's secret field names (core/secrets/redact.ts), matched as JSON keys in any case.
const SECRET_BODY_FIELD =
  /("(?:password|access_token|refresh_token|id_token|client_secret|token|service_key|servicekey|api_key|apikey|x-api-key|secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/**
 * Masks the string value of well-known secret fields in a JSON text (a token endpoint's answer sent from a
 * scratch file, a password echoed back). One linear regex pass, so it is cheap on a 15 MB page.
 */
export function redactBodyText(text: string): string {
  return text.replace(SECRET_BODY_FIELD, `$1"${REDACTED}"`);
}
