// The panel's last line of defence against showing a secret. The host redacts request headers before it
// builds a view model; the builder asserts that it did (a programming error, so it throws, naming the header
// but never its value). Cookies, secret-looking query parameters and token fields of a body are masked here
// because they can arrive from the server itself.
import type { HeaderLine } from '../../protocol/webviewMessages';

export const REDACTED = '[redacted]';

/** Headers whose value the host must have redacted before the panel sees it. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'x-api-key']);
/** Headers the panel masks itself: the server sets them. */
const SESSION_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie']);

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

const SECRET_QUERY = /^(?:.*(?:token|secret|password|passwd|apikey|api_key|api-key|signature|sig)|key|code)$/i;

export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username || parsed.password) {
    parsed.username = parsed.username ? 'redacted' : '';
    parsed.password = '';
    changed = true;
  }
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_QUERY.test(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString() : url;
}

const SECRET_BODY_FIELD = /("(?:access_token|refresh_token|id_token|client_secret|password|Password|serviceKey|ServiceKey)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/**
 * Masks the string value of well-known secret fields in a JSON text (a token endpoint's answer sent from a
 * scratch file, a password echoed back). One linear regex pass, so it is cheap on a 15 MB page.
 */
export function redactBodyText(text: string): string {
  return text.replace(SECRET_BODY_FIELD, `$1"${REDACTED}"`);
}
