// The received-request log each origin exposes at /__sandbox/requests. Secrets never enter it:
// credential headers, password-like query parameters and form fields are replaced before storing.
import type { IncomingHttpHeaders } from 'node:http';
import { isCredentialHeader, isSecretName } from '../../core/secrets/vocabulary';

export const REDACTED = '[redacted]';


export interface LoggedRequest {
  readonly seq: number;
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string | string[]>;
  /** Only for form-encoded requests (the token endpoint), secrets redacted. JSON bodies are not kept. */
  form?: Record<string, string>;
  /** Filled in when the answer starts. */
  status?: number;
  fault?: string;
  /** Published rules the answer followed (`seed 000 §4.2: ...`). */
  rules?: string[];
  /** Sandbox choices the answer applied (the same ids as its X-Sandbox-Choice header). */
  choices?: string[];
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = isCredentialHeader(name) ? redactCredential(value) : value;
  }
  return out;
}

/** Keeps the scheme ("Basic", "Bearer") so a reader can see which method was used, never the value. */
function redactCredential(value: string | string[]): string {
  const text = Array.isArray(value) ? value.join(', ') : value;
  const scheme = /^(basic|bearer)\s/i.exec(text)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

export function redactParams(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, raw] of params) {
    const value = isSecretName(name) ? REDACTED : raw;
    const previous = out[name];
    if (previous === undefined) out[name] = value;
    else out[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}

export function redactForm(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) out[name] = isSecretName(name) ? REDACTED : value;
  return out;
}

/** A bounded log (the newest `capacity` requests) so long benchmarks do not grow memory. */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  constructor(private readonly capacity = 2000) {}

  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const logged: LoggedRequest = { seq: ++this.seq, ...entry };
    this.entries.push(logged);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    return logged;
  }

  list(): readonly LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
